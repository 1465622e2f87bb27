// The Playground's latency: one painted Darcy input through predictInput (encode, the
// forward pass `lino predict` runs, decode: what playground.predict does) for a LiNO at 85², M32 L4,
// on wasm. Measured in the same run:
//   - the first prediction of a freshly loaded model without a warm-up (what the first painted
//     input waited for before the load did a warm-up pass) and with one (warmUpPlaygroundRun);
//   - the steady prediction (median), against the built-in solver's truth for the same input (the
//     reference: what the user waits for after painting stops);
//   - the forward pass's kernels, by tf.profile, the top ones;
//   - on wasm, the Householder and scattering-output ops as the JS loops they ran as before (registered
//     here under bench names) against the composed SIMD ops they run as now, interleaved, at 85² x 32.
// The aim is <= 400 ms for the prediction on wasm (a line, not a test).
//   npm run bench playground      LINO_BENCH_QUICK=1: fewer rounds
import * as tf from '../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { selectBackend } from '../main/ops/backend';
import { createModel } from '../main/model/registry';
import { drawDarcyCoefficient, solveTruth } from '../main/data/generate/playground-solver';
import { predictInput } from '../main/train/playground-predict';
import { warmUpPlaygroundRun, type PlaygroundRun } from '../main/train/playground-run';
import { householderComposed, householderJs } from '../main/ops/householder';
import { scatteringOutputComposed, scatteringOutputJs } from '../main/ops/scattering-output';
import { registerFusedKernel, runFused } from '../main/ops/kernel-registry';

const QUICK = !!process.env.LINO_BENCH_QUICK;
const S = 85;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

/** A LiNO Darcy run as the engine holds it (fresh weights: the timing does not depend on them). */
function playgroundRun(seed: number): PlaygroundRun {
  const model = createModel('lino', { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], seed });
  const stats = { mean: 7.5, std: 4.5 };
  return {
    runId: `bench-${seed}`, kind: 'lino', model, benchmark: 'darcy', grid: [S, S], coordChannels: 2, inChannels: 1, outChannels: 1,
    normalizer: { x: stats, y: { mean: 0, std: 0.01 }, eps: 1e-5, applied: true },
    manifest: {} as PlaygroundRun['manifest'], generator: {}, autoregressive: null,
    profile: { count: 800, meanOfMeans: 7.5, stdOfMeans: 1, meanOfStds: 4.5, stdOfStds: 1, meansRange: [5, 10], stdsRange: [3.5, 4.5], min: 3, max: 12, tol: 1.2e-3, levels: [3, 12] },
    splits: {}, dataNormalization: { x: stats, y: { mean: 0, std: 0.01 }, eps: 1e-5, applied: true },
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The forward pass's kernels by summed time (customGrad scopes, which hold other kernels, left out). */
async function kernelTable(run: PlaygroundRun, input: { grid: number[]; channels: number[][] }): Promise<string[]> {
  const prof = await tf.profile(async () => { await predictInput(run, input); });
  const by = new Map<string, { n: number; ms: number }>();
  for (const k of prof.kernels) {
    if (k.name === 'unnamed scope' || k.name.endsWith('__op')) continue;
    const e = by.get(k.name) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += Number(k.kernelTimeMs) || 0;
    by.set(k.name, e);
  }
  const total = [...by.values()].reduce((a, e) => a + e.ms, 0);
  return [`kernels: ${[...by.values()].reduce((a, e) => a + e.n, 0)} calls, ${total.toFixed(1)} ms in kernels`, ...[...by].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8).map(([n, e]) => `  ${n.padEnd(22)} ${String(e.n).padStart(4)} calls ${e.ms.toFixed(1).padStart(7)} ms ${((100 * e.ms) / total).toFixed(0).padStart(3)} %`)];
}

/** Median ms of JS-loop vs composed, alternating, for the two ops the wasm forward used to run as JS. */
async function jsVersusComposed(rounds: number): Promise<string[]> {
  registerFusedKernel('BenchHouseholderJs', ['h', 'v', 'c'], householderJs);
  registerFusedKernel('BenchScatteringOutputJs', ['num', 'qk', 'yloc', 'h', 'gate', 'ls'], scatteringOutputJs);
  const R = S * S, M = 32;
  const h = tf.randomNormal([R, M]), v = tf.randomNormal([R, M]), c = tf.scalar(-2);
  const num = tf.randomNormal([1, R, M]), qk = tf.add(tf.abs(tf.randomNormal([1, R, 1])), 0.5), gate = tf.scalar(0.3), ls = tf.scalar(-0.2);
  const once = async (f: () => tf.Tensor) => timed(async () => { const y = f(); await y.data(); y.dispose(); });
  const cases = {
    householder: [() => runFused('BenchHouseholderJs', { h, v, c })[0]!, () => tf.tidy(() => householderComposed(h, v, c))],
    'scattering output': [() => runFused('BenchScatteringOutputJs', { num, qk, yloc: v, h, gate, ls })[0]!, () => tf.tidy(() => scatteringOutputComposed(num, qk, v, h, gate, ls))],
  } as const;
  const out: string[] = [];
  for (const [name, [js, composed]] of Object.entries(cases)) {
    const a: number[] = [], b: number[] = [];
    for (let r = 0; r < 3; r++) { await once(js); await once(composed); }
    for (let r = 0; r < rounds * 3; r++) { a.push(await once(js)); b.push(await once(composed)); }
    out.push(`  ${name.padEnd(18)} JS loop (before) ${median(a).toFixed(2)} ms, composed SIMD (now) ${median(b).toFixed(2)} ms: ${(median(a) / median(b)).toFixed(1)} x`);
  }
  tf.dispose([h, v, c, num, qk, gate, ls]);
  return out;
}

export default async function bench(): Promise<void> {
  const report = await selectBackend('wasm');
  const a = drawDarcyCoefficient(1, S, 3, 0);
  const input = { grid: [S, S], channels: [Array.from(a)] };
  // the process's first model: its first prediction is cold (no warm-up)
  const cold = playgroundRun(1);
  const coldFirst = await timed(() => predictInput(cold, input));
  cold.model.dispose();
  // a freshly loaded model with the load's warm-up pass, then its first painted input
  const run = playgroundRun(2);
  const warmUp = await timed(() => warmUpPlaygroundRun(run));
  const warmFirst = await timed(() => predictInput(run, input));
  const rounds = QUICK ? 3 : 10;
  const pred: number[] = [];
  const solve: number[] = [];
  for (let r = 0; r < rounds; r++) {
    pred.push(await timed(() => predictInput(run, input)));
    const t0 = performance.now();
    solveTruth('darcy', [S, S], [a]);
    solve.push(performance.now() - t0);
  }
  const table = await kernelTable(run, input);
  run.model.dispose();
  const p = median(pred), s = median(solve);
  console.log(`backend ${report.active} (${tf.getBackend()}), ${rounds} rounds, medians`);
  console.log(`Playground prediction, LiNO Darcy ${S}², M32 L4, one input: ${p.toFixed(1)} ms (aim: <= 400 ms on wasm)`);
  console.log(`  the solver's truth for the same input (reference, same run): ${s.toFixed(1)} ms; prediction / solve = ${(p / s).toFixed(2)}`);
  console.log(`First prediction of a loaded model: cold ${coldFirst.toFixed(0)} ms (${(coldFirst / p).toFixed(1)} x steady); after the load's warm-up pass (${warmUp.toFixed(0)} ms, paid by the load) ${warmFirst.toFixed(0)} ms (${(warmFirst / p).toFixed(1)} x steady)`);
  for (const line of table) console.log(line);
  console.log(`wasm, one call at [${S * S}, 32], medians (these ops run 8 and 4 times per forward):`);
  for (const line of await jsVersusComposed(rounds)) console.log(line);
}
