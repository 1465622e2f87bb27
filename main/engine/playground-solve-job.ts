// The 'playground-solve' job: the benchmark generator's solver on a Playground input's own grid, in
// a worker of its own (no tfjs), terminated on cancel; in this thread where no worker was built.
// playground.solve (./playground-call.ts) checks the input against the run and starts it.
import type { FromSolveWorker, SolveWorkerInput } from './solve-worker';
import type { PlaygroundTruth } from '../runs/playground-records';
import { solveTruth } from '../data/generate/playground-solver';
import { firstNonFloat32 } from '../util/float32';
import { hasWorker, spawnWorker } from '../util/workers';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';

export const playgroundSolveLabel = (p: JobParams['playground-solve']) => `Playground truth for run ${p.runId} (${p.benchmark})`;

/** The solver in its own worker (no tfjs), terminated on cancel; in this thread when no worker was built. */
function solveInWorker(input: SolveWorkerInput, signal: AbortSignal): Promise<PlaygroundTruth> {
  if (!hasWorker('solve')) {
    const t0 = performance.now();
    const t = solveTruth(input.benchmark, input.grid, input.channels, input.generator, input.extra);
    return Promise.resolve({ grid: input.grid, truth: t.channels.map((c) => Array.from(c)), ...(t.input ? { input: t.input.map((c) => Array.from(c)) } : {}), solver: t.solver, ms: performance.now() - t0 });
  }
  return new Promise((resolve, reject) => {
    const worker = spawnWorker('solve', input)!;
    const stop = () => void worker.terminate();
    signal.addEventListener('abort', stop);
    const end = (fn: () => void) => { signal.removeEventListener('abort', stop); void worker.terminate(); fn(); };
    worker.on('message', (m: FromSolveWorker) => end(() => (m.type === 'done' ? resolve({ grid: input.grid, truth: m.truth.map((c) => Array.from(c)), ...(m.input ? { input: m.input.map((c) => Array.from(c)) } : {}), solver: m.solver, ms: m.ms }) : reject(new Error(m.message)))));
    worker.on('error', (e) => end(() => reject(e)));
    worker.on('exit', (code) => end(() => reject(new Error(signal.aborted ? 'cancelled' : `the solver's worker exited (code ${code}) before answering`))));
  });
}

/** The 'playground-solve' job: the benchmark's solver on the input's own grid, in a worker of its own. */
export async function runPlaygroundSolve(p: JobParams['playground-solve'], ctx: JobContext): Promise<PlaygroundTruth> {
  ctx.progress(0, 'solving');
  const t = await solveInWorker({ benchmark: p.benchmark, grid: [...p.input.grid], channels: p.input.channels, generator: p.generator, ...(p.extra ? { extra: p.extra } : {}) }, ctx.signal);
  // a solution that left float32 would be answered as nulls: the job fails naming what to change
  for (const [what, chs] of [['truth', t.truth], ['input', t.input ?? []]] as const) {
    for (const [c, ch] of chs.entries()) {
      const at = firstNonFloat32(ch);
      if (at >= 0) throw new Error(`playground.solve: field '${p.input.channels.length ? 'input' : 'design'}': the ${p.benchmark} solver's ${what} for it is ${ch[at]} at channel ${c}, point ${at} (not finite in float32); expected an input nearer the benchmark's range`);
    }
  }
  return t;
}
