// Gradients of the mean squared error over a batch, computed in micro-batches with gradient
// accumulation when the whole batch does not fit (wasm memory is capped at 4 GiB and tfjs keeps
// every intermediate until the backward pass). Minimal: for the model bench and data-parallel
// workers; the training engineer owns this folder.
import * as tf from '@tensorflow/tfjs';
import type { NeuralOperator } from '../model/types';
import { readValues } from '../ops/backend';

/**
 * Gradients of scale * mean((model(x) - y)^2), keyed by state_dict name. `scale` lets
 * data-parallel workers weight their share of a larger batch (n_worker / B_total).
 */
export async function mseGradients(model: NeuralOperator, x: tf.Tensor, y: tf.Tensor, microBatch: number, scale = 1): Promise<{ loss: number; grads: Map<string, tf.Tensor> }> {
  const B = x.shape[0]!;
  const names = [...model.variables.keys()];
  const vars = [...model.variables.values()];
  const acc = new Map<string, tf.Tensor>();
  let loss: tf.Scalar | null = null;
  for (let s = 0; s < B; s += microBatch) {
    const n = Math.min(microBatch, B - s);
    const xb = n === B ? x : tf.slice(x, s, n);
    const yb = n === B ? y : tf.slice(y, s, n);
    const { value, grads } = tf.variableGrads(() => tf.mul(tf.mean(tf.squaredDifference(model.forward(xb).y, yb)), (scale * n) / B) as tf.Scalar, vars);
    const prevLoss: tf.Scalar | null = loss;
    loss = prevLoss ? (tf.add(prevLoss, value) as tf.Scalar) : value;
    if (prevLoss) tf.dispose([prevLoss, value]);
    names.forEach((k, i) => {
      const g = grads[vars[i]!.name]!;
      const prev = acc.get(k);
      if (prev) {
        acc.set(k, tf.add(prev, g));
        prev.dispose();
        g.dispose();
      } else acc.set(k, g);
    });
    if (xb !== x) tf.dispose([xb, yb]);
  }
  // one read per call: the loss, after every micro-batch was queued
  const lossValue = loss ? (await readValues(loss))[0]! : 0;
  loss?.dispose();
  return { loss: lossValue, grads: acc };
}
