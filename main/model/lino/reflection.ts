// Reflection: Householder mirror of each point's latent vector about an adaptive hyperplane,
// R(h) = h - 2 <h, vhat> vhat with vhat = unit(Affine_r(h)). Pointwise; matrix-free O(M).
import * as tf from '../../ops/tf';
import { linear } from '../../ops/linear';
import { rowDot } from '../../ops/row-dot';
import { householder } from '../../ops/householder';
import type { ParamStore } from './params';

export function reflect(h: tf.Tensor, vhat: tf.Tensor): tf.Tensor {
  const dot = rowDot(h, vhat);
  return tf.sub(h, tf.mul(tf.mul(dot, 2), vhat));
}

export class Reflection {
  readonly weight: tf.Variable;
  readonly bias: tf.Variable;

  constructor(store: ParamStore, prefix: string, width: number) {
    const a = store.affine(`${prefix}.v_proj`, width, width);
    this.weight = a.weight;
    this.bias = a.bias!;
  }

  /** h: [..., M] (normalized block input). One fused kernel for the per-point maths (ops/householder.ts). */
  apply(h: tf.Tensor): tf.Tensor {
    return householder(h, linear(h, this.weight, this.bias), -2);
  }
}
