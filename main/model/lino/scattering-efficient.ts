// Efficient scattering, linear in N: a linearized positive kernel phi(s) = ELU(s) + 1 with
// coordinate-encoded queries/keys (global), plus a depthwise-conv local diffusion branch,
// mixed by beta = sigmoid(gamma_loc); S(h) = exp(lambda_s) (y - h).
import * as tf from '@tensorflow/tfjs';
import { linear } from '../../ops/linear';
import { gelu } from '../../ops/gelu';
import { bmm, transposeLast } from '../../ops/batch-matmul';
import { depthwiseConv } from '../../ops/depthwise-conv';
import { coordinateTensor } from './coords';
import type { GridConstants } from './constants';
import { scalarValue, type ParamStore } from './params';

export function positiveFeature(s: tf.Tensor): tf.Tensor {
  return tf.add(tf.elu(s), 1);
}

export class ScatteringEfficient {
  readonly wq: tf.Variable;
  readonly wk: tf.Variable;
  readonly wv: tf.Variable;
  readonly coord0: { weight: tf.Variable; bias?: tf.Variable };
  readonly coord2: { weight: tf.Variable; bias?: tf.Variable };
  readonly localConv: tf.Variable;
  readonly localProj: tf.Variable;
  /** gamma_loc, initial -1. */
  readonly localGate: tf.Variable;
  /** lambda_s, initial -2. */
  readonly logSigma: tf.Variable;

  constructor(store: ParamStore, prefix: string, private readonly width: number, private readonly dims: 1 | 2) {
    const M = width;
    this.wq = store.affine(`${prefix}.q_proj`, M, M, false).weight;
    this.wk = store.affine(`${prefix}.k_proj`, M, M, false).weight;
    this.wv = store.affine(`${prefix}.v_proj`, M, M, false).weight;
    this.coord0 = store.affine(`${prefix}.coord_mlp.0`, dims, M);
    this.coord2 = store.affine(`${prefix}.coord_mlp.2`, M, M);
    const k = dims === 1 ? [3] : [3, 3];
    this.localConv = store.uniform(`${prefix}.local_conv.weight`, [M, 1, ...k], dims === 1 ? 3 : 9);
    this.localProj = store.affine(`${prefix}.local_proj`, M, M, false).weight;
    this.localGate = store.constant(`${prefix}.local_gate`, [], -1);
    this.logSigma = store.constant(`${prefix}.log_sigma`, [], -2);
  }

  /** Global branch's normalized weights, [B, N, N]: phi(q_i).phi(k_j) / (phi(q_i).sum_j phi(k_j) + 1e-6). For tests; O(N^2). */
  globalWeights(h: tf.Tensor3D, grid: readonly number[], consts: GridConstants): tf.Tensor3D {
    const [phq, phk] = this.features(h, grid, consts);
    const raw = bmm(phq, transposeLast(phk));
    return tf.div(raw, tf.add(tf.sum(raw, -1, true), 1e-6)) as tf.Tensor3D;
  }

  private features(h: tf.Tensor3D, grid: readonly number[], consts: GridConstants): [tf.Tensor3D, tf.Tensor3D] {
    const p = consts.get('coords', grid, () => coordinateTensor(grid));
    const c = linear(gelu(linear(p, this.coord0.weight, this.coord0.bias)), this.coord2.weight, this.coord2.bias);
    const scale = 1 / Math.sqrt(this.width);
    const qt = tf.add(tf.mul(linear(h, this.wq), scale), c);
    const kt = tf.add(tf.mul(linear(h, this.wk), scale), c);
    return [positiveFeature(qt) as tf.Tensor3D, positiveFeature(kt) as tf.Tensor3D];
  }

  /** h: [B, N, M] flattened grid. */
  apply(h: tf.Tensor3D, grid: readonly number[], consts: GridConstants): tf.Tensor3D {
    const [B, N, M] = h.shape;
    const [phq, phk] = this.features(h, grid, consts);
    const z = linear(h, this.wv) as tf.Tensor3D;
    const phkT = transposeLast(phk); // [B, d, N], shared by both products (one transpose each way)
    const kv = bmm(phkT, z); // [B, d, M]
    // sum_j phi(kt_j) and phi(qt_i).ksum as per-sample 2-D products (fast on wasm, no Sum gradient)
    const ksum = bmm(phkT, tf.ones([B, N, 1]) as tf.Tensor3D); // [B, d, 1]
    const num = bmm(phq, kv); // [B, N, M]
    const den = tf.add(bmm(phq, ksum), 1e-6); // [B, N, 1]
    const yGlob = tf.div(num, den);
    const conv = depthwiseConv(tf.reshape(h, [B, ...grid, M]), this.localConv);
    const yLoc = linear(tf.reshape(conv, [B, N, M]), this.localProj);
    const beta = tf.sigmoid(this.localGate);
    const y = tf.add(tf.mul(yGlob, tf.sub(1, beta)), tf.mul(yLoc, beta));
    return tf.mul(tf.sub(y, h), tf.exp(this.logSigma)) as tf.Tensor3D;
  }

  betaValue(): number {
    return 1 / (1 + Math.exp(-scalarValue(this.localGate)));
  }

  sigmaValue(): number {
    return Math.exp(scalarValue(this.logSigma));
  }
}
