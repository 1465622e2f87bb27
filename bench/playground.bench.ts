// The Playground's latency (issue 25): one painted Darcy input through predictBatched (the loop
// `lino predict` and playground.predict share) for a LiNO at 85², M32 L4, on wasm; beside it, as
// the reference measured in the same run, the built-in solver's truth for the same input (what the
// user waits for after painting stops). Issue 25 asks <= 400 ms for the prediction on wasm (a line, not a test).
//   npm run bench playground      LINO_BENCH_QUICK=1: fewer rounds
import * as tf from '../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { selectBackend } from '../main/ops/backend';
import { createModel } from '../main/model/registry';
import { predictBatched } from '../main/train/predict-batched';
import { gridCoords } from '../main/data/stages/coords';
import { drawDarcyCoefficient, solveTruth } from '../main/data/generate/playground-solver';

const QUICK = !!process.env.LINO_BENCH_QUICK;
const S = 85;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

export default async function bench(): Promise<void> {
  const report = await selectBackend('wasm');
  const model = createModel('lino', { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], seed: 1 });
  const a = drawDarcyCoefficient(1, S, 3, 0);
  const coords = gridCoords([S, S]);
  const x = new Float32Array(S * S * 3);
  for (let p = 0; p < S * S; p++) { x[p * 3] = (a[p]! - 7.5) / 4.5; x[p * 3 + 1] = coords[p * 2]!; x[p * 3 + 2] = coords[p * 2 + 1]!; }
  const rounds = QUICK ? 3 : 10;
  await predictBatched(model, { data: x, shape: [1, S, S, 3] }, 1, 1); // warm-up: kernels, weights upload
  const pred: number[] = [];
  const solve: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    await predictBatched(model, { data: x, shape: [1, S, S, 3] }, 1, 1);
    pred.push(performance.now() - t0);
    t0 = performance.now();
    solveTruth('darcy', [S, S], [a]);
    solve.push(performance.now() - t0);
  }
  model.dispose();
  const p = median(pred), s = median(solve);
  console.log(`backend ${report.active} (${tf.getBackend()}), ${rounds} rounds, medians`);
  console.log(`Playground prediction, LiNO Darcy ${S}², M32 L4, one input: ${p.toFixed(1)} ms (issue 25: <= 400 ms on wasm)`);
  console.log(`  the solver's truth for the same input (reference, same run): ${s.toFixed(1)} ms; prediction / solve = ${(p / s).toFixed(2)}`);
}
