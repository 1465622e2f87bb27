// The Playground's solver in a worker thread of its own: the benchmark generators' solver
// on one input, no TensorFlow.js loaded, so it starts in a moment and the engine thread keeps answering.
import { parentPort, workerData } from 'node:worker_threads';
import { solveTruth, type SolveExtra } from '../data/generate/playground-solver';
import { errorMessage } from '../util/error-message';

export interface SolveWorkerInput { benchmark: string; grid: number[]; channels: number[][]; generator: Record<string, unknown>; extra?: SolveExtra }
export type FromSolveWorker = { type: 'done'; truth: Float32Array[]; input?: Float32Array[]; solver: string; ms: number } | { type: 'error'; message: string };

const input = workerData as SolveWorkerInput;
const t0 = performance.now();
try {
  const t = solveTruth(input.benchmark, input.grid, input.channels, input.generator, input.extra);
  parentPort!.postMessage({ type: 'done', truth: t.channels, ...(t.input ? { input: t.input } : {}), solver: t.solver, ms: performance.now() - t0 } satisfies FromSolveWorker);
} catch (e) {
  parentPort!.postMessage({ type: 'error', message: errorMessage(e) } satisfies FromSolveWorker);
}
