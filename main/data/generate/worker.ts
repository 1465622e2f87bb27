// Worker thread body: produces the samples it is given and posts each one back as soon as it is done
// (its buffers transferred, not copied). The parent terminates the worker to cancel.
import { parentPort, workerData } from 'node:worker_threads';
import { SAMPLERS } from './samplers';
import type { BenchmarkName } from './types';
import type { GeneratorParams } from './presets';

export interface WorkerInput {
  benchmark: BenchmarkName;
  params: GeneratorParams;
  seed: number;
  indices: number[];
}

export type WorkerMessage =
  | { type: 'sample'; index: number; arrays: Record<string, Float32Array>; stats: Record<string, number>; ms: number }
  | { type: 'partial'; index: number; fraction: number }
  | { type: 'done' }
  | { type: 'error'; message: string };

async function main(): Promise<void> {
  const input = workerData as WorkerInput;
  const port = parentPort!;
  try {
    const sampler = await SAMPLERS[input.benchmark]();
    for (const index of input.indices) {
      const t0 = performance.now();
      let last = 0;
      const report = (fraction: number) => {
        const now = performance.now();
        if (now - last < 250) return; // at most 4 messages a second
        last = now;
        port.postMessage({ type: 'partial', index, fraction } satisfies WorkerMessage);
      };
      const { arrays, stats } = sampler.sample(input.seed, index, input.params, report);
      const msg: WorkerMessage = { type: 'sample', index, arrays, stats, ms: performance.now() - t0 };
      port.postMessage(msg, Object.values(arrays).map((a) => a.buffer as ArrayBuffer));
    }
    port.postMessage({ type: 'done' } satisfies WorkerMessage);
  } catch (e) {
    port.postMessage({ type: 'error', message: e instanceof Error ? e.stack ?? e.message : String(e) } satisfies WorkerMessage);
  }
}

if (parentPort) void main();
