// Offline benchmark generators: `generateDataset` runs the samples of one benchmark in worker threads
// (node:worker_threads, samples interleaved across 2 workers), reports progress per sample and stops
// the workers at once when the AbortSignal fires. Sample i depends only on (seed, i), so the bytes are
// the same whatever the number of workers.
import type { Worker } from 'node:worker_threads';
import { hasWorker, spawnWorker } from '../../util/workers';
import { ndarray, type NdArray } from '../ndarray';
import type { BenchmarkName, GenerateHooks, GenerateOptions, GeneratedDataset } from './types';
import { PRESETS, resolveParams, methodOf, type GeneratorParams } from './presets';
import { SAMPLERS, type SampleResult } from './samplers';
import type { WorkerInput, WorkerMessage } from './worker';

export { PRESETS, resolveParams, methodOf };
export type { GeneratorParams };
export const DEFAULT_SEED = 0;

/** Extra knobs that are not part of the UI contract. */
export interface RunOptions {
  /** Worker threads (default min(2, samples)); 0 runs in the calling thread (still cancellable between samples). */
  workers?: number;
}

function abortError(signal: AbortSignal): Error {
  const r = signal.reason;
  if (r instanceof Error) return r;
  const e = new Error(typeof r === 'string' ? r : 'generation cancelled');
  e.name = 'AbortError';
  return e;
}

/** Largest generated dataset: values per variable (one typed array) and bytes in all. */
export const MAX_GENERATED_VALUES = 2 ** 31 - 1;
export const MAX_GENERATED_BYTES = 8 * 2 ** 30;

/** Refuses, before anything is allocated, a dataset larger than memory holds, naming the parameters to lower. */
function checkGeneratedSize(benchmark: string, params: GeneratorParams, per: Record<string, number>): void {
  const N = params.samples;
  const grid = 'resolution' in params ? `, resolution ${params.resolution}` : '';
  let bytes = 0;
  for (const [name, n] of Object.entries(per)) {
    const values = N * n;
    bytes += 4 * values;
    if (values > MAX_GENERATED_VALUES || bytes > MAX_GENERATED_BYTES) {
      throw new Error(`generate ${benchmark}: 'samples' ${N}${grid} make ${values} values of '${name}' (${(bytes / 2 ** 30).toFixed(1)} GiB so far), more than the ${MAX_GENERATED_VALUES} values per variable and ${MAX_GENERATED_BYTES / 2 ** 30} GiB in all that are generated; lower 'samples'${grid ? " or 'resolution'" : ''}`);
    }
  }
}

export async function generateDataset(
  benchmark: BenchmarkName,
  options: GenerateOptions,
  hooks: GenerateHooks = {},
  run: RunOptions = {},
): Promise<GeneratedDataset> {
  const params = resolveParams(benchmark, options);
  const seed = options.seed ?? DEFAULT_SEED;
  const N = params.samples;
  const signal = hooks.signal;
  if (signal?.aborted) throw abortError(signal);
  const sampler = await SAMPLERS[benchmark]();
  const shapes = sampler.shapes(params);
  const per: Record<string, number> = {};
  const out: Record<string, Float32Array> = {};
  for (const [name, shape] of Object.entries(shapes)) per[name] = shape.reduce((a, b) => a * b, 1);
  checkGeneratedSize(benchmark, params, per);
  for (const name of Object.keys(per)) out[name] = new Float32Array(N * per[name]!);
  const stats: Record<string, number>[] = new Array(N);
  const t0 = performance.now();
  let done = 0;
  const accept = (index: number, r: SampleResult) => {
    for (const name of Object.keys(out)) {
      const a = r.arrays[name];
      if (!a || a.length !== per[name]) throw new Error(`generate ${benchmark}: sample ${index} variable ${name} has ${a?.length} values, expected ${per[name]}`);
      out[name].set(a, index * per[name]);
    }
    stats[index] = r.stats;
    running.delete(index);
    done++;
    const elapsed = (performance.now() - t0) / 1000;
    const eta = (elapsed / done) * (N - done);
    hooks.onProgress?.({ done, total: N, message: `${benchmark}: ${done}/${N} samples, ${elapsed.toFixed(1)} s elapsed, about ${eta.toFixed(0)} s left` });
  };
  // Long samples (a Navier-Stokes trajectory) also report their fraction done; `done` stays the count of
  // finished samples, the message and the ETA include the running ones.
  const running = new Map<number, number>();
  const partial = (index: number, fraction: number) => {
    running.set(index, fraction);
    const elapsed = (performance.now() - t0) / 1000;
    let progress = done;
    for (const f of running.values()) progress += f;
    const eta = progress > 0 ? (elapsed / progress) * (N - progress) : NaN;
    hooks.onProgress?.({ done, total: N, message: `${benchmark}: ${done}/${N} samples (${progress.toFixed(2)} counting running ones), ${elapsed.toFixed(1)} s elapsed, about ${Number.isFinite(eta) ? eta.toFixed(0) : '?'} s left` });
  };
  hooks.onProgress?.({ done: 0, total: N, message: `${benchmark}: starting ${N} samples` });

  // A bundle that did not ship the worker entry runs the samples in this thread (the manifest says so).
  const nWorkers = hasWorker('generate') ? Math.min(run.workers ?? 2, N) : 0;
  if (nWorkers <= 0) {
    for (let i = 0; i < N; i++) {
      if (signal?.aborted) throw abortError(signal);
      let last = 0;
      const report = (f: number) => {
        const now = performance.now();
        if (now - last >= 250) { last = now; partial(i, f); }
      };
      accept(i, sampler.sample(seed, i, params, report));
      await new Promise((r) => setImmediate(r)); // lets an abort arrive between samples
    }
  } else {
    await runWorkers(benchmark, params, seed, nWorkers, signal, accept, partial);
  }

  const variables: Record<string, NdArray> = {};
  for (const [name, shape] of Object.entries(shapes)) variables[name] = ndarray(out[name], [N, ...shape], 'float32');
  for (const [name, c] of Object.entries(sampler.constants?.(params) ?? {})) variables[name] = ndarray(c.data, c.shape, 'float32');
  return { benchmark, variables, manifest: manifestOf(benchmark, options, params, seed, stats, (performance.now() - t0) / 1000, nWorkers) };
}

function runWorkers(
  benchmark: BenchmarkName,
  params: GeneratorParams,
  seed: number,
  nWorkers: number,
  signal: AbortSignal | undefined,
  accept: (index: number, r: SampleResult) => void,
  partial: (index: number, fraction: number) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const workers: Worker[] = [];
    let finished = 0;
    const doneWorkers = new Set<Worker>();
    let settled = false;
    const stopAll = () => {
      for (const w of workers) void w.terminate();
    };
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      stopAll();
      reject(e);
    };
    const onAbort = () => fail(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    for (let w = 0; w < nWorkers; w++) {
      const indices: number[] = [];
      for (let i = w; i < params.samples; i += nWorkers) indices.push(i);
      const input: WorkerInput = { benchmark, params, seed, indices };
      const worker = spawnWorker('generate', input)!;
      workers.push(worker);
      worker.on('message', (m: WorkerMessage) => {
        if (settled) return;
        if (m.type === 'sample') {
          try {
            accept(m.index, m);
          } catch (e) {
            fail(e as Error);
          }
        } else if (m.type === 'partial') {
          partial(m.index, m.fraction);
        } else if (m.type === 'error') {
          fail(new Error(`generate ${benchmark}: worker failed: ${m.message}`));
        } else if (m.type === 'done') {
          doneWorkers.add(worker);
          if (++finished === nWorkers && !settled) {
            settled = true;
            signal?.removeEventListener('abort', onAbort);
            resolve();
          }
        }
      });
      worker.on('error', (e) => fail(new Error(`generate ${benchmark}: worker crashed: ${e.message}`)));
      worker.on('exit', (code) => {
        if (!settled && !doneWorkers.has(worker) && code !== 0) fail(new Error(`generate ${benchmark}: worker exited with code ${code}`));
      });
    }
  });
}

function summarize(stats: Record<string, number>[]): Record<string, { min: number; mean: number; max: number }> {
  const out: Record<string, { min: number; mean: number; max: number }> = {};
  const keys = new Set(stats.flatMap((s) => Object.keys(s ?? {})));
  for (const k of keys) {
    // a loop, not Math.min(...v): datasets can have more samples than a call has argument slots
    let min = Infinity, max = -Infinity, sum = 0, n = 0;
    for (const s of stats) {
      const x = s?.[k];
      if (typeof x !== 'number') continue;
      if (x < min) min = x;
      if (x > max) max = x;
      sum += x;
      n++;
    }
    out[k] = { min, mean: sum / n, max };
  }
  return out;
}

const NOTES: Record<BenchmarkName, string> = {
  darcy:
    "FNO's procedure (GRF.m, solve_gwf.m): thresholded cosine-transform GRF as cell-centred coefficient, not-a-knot spline to the nodal grid, " +
    '5-point FD with face averages on the unclamped splined coefficient (as solve_gwf.m: the spline overshoots and its extrapolation to the ' +
    'boundary nodes can go negative), solved in float64 by banded LU with partial pivoting (as MATLAB\'s direct A\\F) up to 160 points, ' +
    'MINRES preconditioned by a multigrid V-cycle of the clamped operator above; spline back to the cell centres. params.clamp = true ' +
    'clamps the coefficient to [low, high] instead (not FNO; multigrid-PCG).',
  burgers:
    "FNO's GRF1 periodic initial data (half-period shift omitted: same law); pseudo-spectral, diffusion integrated exactly (integrating factor), " +
    'nonlinear term explicit RK4 with 2/3 dealiasing; stored values stride the solve grid.',
  'navier-stokes':
    "FNO's ns_2d.py: GaussianRF initial vorticity, pseudo-spectral, 2/3 dealiasing, explicit nonlinear term with Crank-Nicolson viscosity; " +
    'recorded at t = 1..T; stored values stride the solve grid.',
  airfoil:
    'STAND-IN, not the Geo-FNO data: subsonic potential flow (Hess-Smith source/vortex panel method, Kutta condition) with the Karman-Tsien ' +
    'compressibility correction at the stated free-stream Mach number, on a body-fitted C-grid around NACA-0012 deformed by an 8-node cubic design ' +
    'element. The real data (transonic Euler, M_inf = 0.8, shocks) load through the .npy reader.',
};

function manifestOf(
  benchmark: BenchmarkName,
  options: GenerateOptions,
  params: GeneratorParams,
  seed: number,
  stats: Record<string, number>[],
  seconds: number,
  workers: number,
): Record<string, unknown> {
  return {
    generator: 'lino-workbench/main/data/generate',
    benchmark,
    preset: options.preset,
    overrides: { resolution: options.resolution, samples: options.samples, frames: options.frames, clamp: options.clamp, tIn: options.tIn, tOut: options.tOut },
    params,
    seed,
    rng: 'xoshiro128** per sample, seeded by SplitMix32 mixing of (seed, benchmark, sample index); normals by Box-Muller',
    method: methodOf(params),
    fineGridThenStride: params.benchmark !== 'airfoil' && params.resolution !== params.solveResolution,
    standIn: benchmark === 'airfoil',
    notes: NOTES[benchmark],
    solver: summarize(stats),
    dtype: 'float32 (computed in float64)',
    workers,
    seconds,
  };
}
