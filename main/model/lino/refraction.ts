// Refraction: rescales the component of h along an adaptive normal by eta = 1 + rho tanh(gamma),
// T(h) = h + (eta - 1) <h, vhat> vhat. Pointwise rank-one deformation of the identity.
import * as tf from '../../ops/tf';
import { linear } from '../../ops/linear';
import { rowDot } from '../../ops/row-dot';
import { householder } from '../../ops/householder';
import { scalarValue, type ParamStore } from './params';

export const RHO = 0.25;

export function refract(h: tf.Tensor, vhat: tf.Tensor, eta: tf.Tensor | number): tf.Tensor {
  const dot = rowDot(h, vhat);
  return tf.add(h, tf.mul(tf.mul(dot, tf.sub(eta, 1)), vhat));
}

export class Refraction {
  readonly weight: tf.Variable;
  readonly bias: tf.Variable;
  /** gamma, initial 0 (release: refractive_param). */
  readonly gamma: tf.Variable;

  constructor(store: ParamStore, prefix: string, width: number) {
    const a = store.affine(`${prefix}.v_proj`, width, width);
    this.weight = a.weight;
    this.bias = a.bias!;
    this.gamma = store.constant(`${prefix}.refractive_param`, [], 0);
  }

  eta(): tf.Tensor {
    return tf.add(tf.mul(tf.tanh(this.gamma), RHO), 1);
  }

  etaValue(): number {
    return 1 + RHO * Math.tanh(scalarValue(this.gamma));
  }

  /** h: [..., M]. One fused kernel for the per-point maths (ops/householder.ts), c = eta - 1. */
  apply(h: tf.Tensor): tf.Tensor {
    return householder(h, linear(h, this.weight, this.bias), tf.mul(tf.tanh(this.gamma), RHO));
  }
}
