// Host AdamW (our kernel over arrays in a memory of its own) against device AdamW (tensor ops on
// cpu; on wasm one kernel of our own in place on the heap) on wasm and cpu, for the parameters of
// Darcy 32² M32 L4: the flat gradient as the trainer hands it over (host path: read back first, as
// the trainer does in the same read as the loss). Interleaved rounds; the faster path is the
// default for that backend (main/train/adamw.ts).
//   npm run bench optimizer-path
import * as tf from '../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { ensureFastWasmKernels } from '../main/ops/tfjs-internals/wasm-kernels';
import { LinoOperator } from '../main/model/lino/operator';
import { AdamW } from '../main/train/adamw';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

export default async function bench(): Promise<void> {
  ensureFastWasmKernels();
  for (const backend of ['wasm', 'cpu']) {
    await tf.setBackend(backend);
    const model = new LinoOperator({ dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], seed: 1 });
    const n = model.numParams();
    const host = new AdamW(model.variables, { lr: 1e-3, weightDecay: 1e-5 }, { device: false });
    const dev = new AdamW(model.variables, { lr: 1e-3, weightDecay: 1e-5 }, { device: true });
    const g = tf.randomNormal([n], 0, 1e-3, 'float32', 3);
    const t = { host: [] as number[], device: [] as number[] };
    for (let r = 0; r < 40; r++) {
      let t0 = performance.now();
      await host.applyFlat(Float32Array.from((await g.data()) as Float32Array), 1e-3);
      t.host.push(performance.now() - t0);
      t0 = performance.now();
      await dev.applyFlat(g, 1e-3);
      await model.variables.values().next().value!.data(); // wait for the update (a no-op wait on wasm/cpu)
      t.device.push(performance.now() - t0);
    }
    const [h, d] = [median(t.host.slice(5)), median(t.device.slice(5))];
    console.log(`${backend.padEnd(5)} AdamW over ${n} parameters in ${model.variables.size} tensors: host ${h.toFixed(2)} ms, device ${d.toFixed(2)} ms, host/device ${(h / d).toFixed(2)} (${h <= d ? 'host' : 'device'} wins)`);
    host.dispose();
    dev.dispose();
    g.dispose();
    model.dispose();
  }
}
