// Adaptive mixture: alpha = softmax(Gate(mean_space(h))), one weight vector per sample;
// mix = sum_k alpha[:, k] b_k. Gate: affine M->2M, GELU, affine 2M->K.
import * as tf from '../../ops/tf';
import { geluLinear, linear } from '../../ops/linear';
import { mixRows } from '../../ops/mix';
import type { ParamStore } from './params';

export class Gate {
  readonly l0: { weight: tf.Variable; bias?: tf.Variable };
  readonly l2: { weight: tf.Variable; bias?: tf.Variable };

  constructor(store: ParamStore, prefix: string, width: number, readonly k: number) {
    this.l0 = store.affine(`${prefix}.0`, width, 2 * width);
    this.l2 = store.affine(`${prefix}.2`, 2 * width, k);
  }

  /** h: [B*N, M] (B samples) -> alpha [B, K]. */
  weights(h: tf.Tensor2D, batch: number): tf.Tensor2D {
    const hbar = tf.mean(tf.reshape(h, [batch, -1, h.shape[1]]), 1);
    return tf.softmax(geluLinear(linear(hbar, this.l0.weight, this.l0.bias), this.l2.weight, this.l2.bias)) as tf.Tensor2D;
  }
}

/** sum_k alpha[:, k] * branches[k]; branches [B*N, M] (B samples), alpha [B, K] -> [B*N, M]. */
export function mixBranches(alpha: tf.Tensor2D, branches: tf.Tensor2D[]): tf.Tensor2D {
  return mixRows(alpha, branches) as tf.Tensor2D;
}
