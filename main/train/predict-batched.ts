// The raw operator on encoded inputs, in batches: `lino predict` and the Playground's predictions
// run this one loop, so what the app shows is what the command line writes.
import * as tf from '../ops/tf';
import type { NeuralOperator } from '../model/types';

/** y = model(x) for x [B, ...grid, C_in] (channels-last), `batchSize` samples at a time; answers [B, ...grid, C_out]. */
export async function predictBatched(model: NeuralOperator, x: { data: Float32Array; shape: readonly number[] }, outChannels: number, batchSize: number): Promise<{ data: Float32Array; shape: number[] }> {
  const B = x.shape[0]!;
  const per = x.data.length / B;
  const shape = [...x.shape.slice(0, -1), outChannels];
  const y = new Float32Array(shape.reduce((a, b) => a * b, 1));
  const perOut = y.length / B;
  for (let s = 0; s < B; s += batchSize) {
    const n = Math.min(batchSize, B - s);
    const yb = tf.tidy(() => model.forward(tf.tensor(x.data.subarray(s * per, (s + n) * per), [n, ...x.shape.slice(1)])).y);
    try {
      y.set((await yb.data()) as Float32Array, s * perOut);
    } finally {
      yb.dispose();
    }
  }
  return { data: y, shape };
}
