// One training step for the model bench: forward, backward (micro-batched with gradient
// accumulation when the batch does not fit), AdamW update. Loss: mean squared error.
import * as tf from '@tensorflow/tfjs';
import type { NeuralOperator } from '../main/model/types';
import type { AdamW } from '../main/train/adamw';

/** Gradients of mean((model(x) - y)^2) over the whole batch, keyed by state_dict name. */
export function batchGrads(model: NeuralOperator, x: tf.Tensor, y: tf.Tensor, microBatch: number): { loss: number; grads: Map<string, tf.Tensor> } {
  const B = x.shape[0]!;
  const names = [...model.variables.keys()];
  const vars = [...model.variables.values()];
  const acc = new Map<string, tf.Tensor>();
  let loss = 0;
  for (let s = 0; s < B; s += microBatch) {
    const n = Math.min(microBatch, B - s);
    const xb = n === B ? x : tf.slice(x, s, n);
    const yb = n === B ? y : tf.slice(y, s, n);
    const { value, grads } = tf.variableGrads(() => tf.mul(tf.mean(tf.squaredDifference(model.forward(xb).y, yb)), n / B) as tf.Scalar, vars);
    loss += value.dataSync()[0]!;
    value.dispose();
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
  return { loss, grads: acc };
}

export function trainStep(model: NeuralOperator, opt: AdamW, x: tf.Tensor, y: tf.Tensor, microBatch: number): number {
  const { loss, grads } = batchGrads(model, x, y, microBatch);
  opt.apply(grads);
  tf.dispose([...grads.values()]);
  return loss;
}
