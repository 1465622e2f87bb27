import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { LinoOperator } from '../main/model/lino/operator';
import { AdamW } from '../main/train/adamw';
import { trainStep } from './model-step';
await tf.setBackend(process.argv[2] ?? 'wasm');
const m = new LinoOperator({ dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient' });
const opt = new AdamW(m.variables, { weightDecay: 1e-5 });
const x = tf.randomNormal([4, 32, 32, 3]); const y = tf.randomNormal([4, 32, 32, 1]);
const ts: number[] = [];
for (let i = 0; i < 12; i++) { const t0 = performance.now(); trainStep(m, opt, x, y, 4); ts.push(performance.now() - t0); }
ts.sort((a,b)=>a-b); console.log("median", ts[6].toFixed(0), "min", ts[0].toFixed(0), tf.memory().numTensors);
if (process.argv[3]) {
  const p = await tf.profile(() => trainStep(m, opt, x, y, 4));
  const agg = new Map<string, number>();
  // kernelTimeMs is a promise on some backends
  for (const k of p.kernels) agg.set(k.name, (agg.get(k.name) ?? 0) + (await k.kernelTimeMs as number));
  console.log([...agg].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k}:${v.toFixed(1)}`).join(' '));
}
{
  const p = await tf.profile(() => trainStep(m, opt, x, y, 4));
  let tot = 0; for (const k of p.kernels) tot += (await k.kernelTimeMs as number);
  const cnt = new Map<string, number>(); for (const k of p.kernels) cnt.set(k.name, (cnt.get(k.name) ?? 0) + 1);
  console.log('kernels', p.kernels.length, 'kernel ms', tot.toFixed(0), [...cnt].sort((a,b)=>b[1]-a[1]).slice(0,15).map(([k,v])=>`${k}:${v}`).join(' '));
}
