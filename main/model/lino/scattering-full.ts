// Full (pairwise) scattering, the release's "standard": softmax kernel with a Gaussian
// positional bias, S(h) = exp(lambda_s) (K z - h). O(N^2) time and memory.
import * as tf from '../../ops/tf';
import { linear } from '../../ops/linear';
import { bmm } from '../../ops/batch-matmul';
import { pairwiseSquaredDistances } from './coords';
import type { GridConstants } from './constants';
import { scalarValue, type ParamStore } from './params';

export class ScatteringFull {
  readonly wq: tf.Variable;
  readonly wk: tf.Variable;
  readonly wv: tf.Variable;
  /** lambda_s, initial -2. */
  readonly logSigma: tf.Variable;
  /** tau0, initial 0. */
  readonly logTau: tf.Variable;

  constructor(store: ParamStore, prefix: string, private readonly width: number) {
    this.wq = store.affine(`${prefix}.q_proj`, width, width, false).weight;
    this.wk = store.affine(`${prefix}.k_proj`, width, width, false).weight;
    this.wv = store.affine(`${prefix}.v_proj`, width, width, false).weight;
    this.logSigma = store.constant(`${prefix}.log_sigma`, [], -2);
    this.logTau = store.constant(`${prefix}.log_tau`, [], 0);
  }

  /** Row-stochastic kernel K [B, N, N] from h [B, N, M] (exposed for the property tests). */
  kernel(h: tf.Tensor3D, grid: readonly number[], consts: GridConstants): tf.Tensor3D {
    const [B, N, M] = h.shape;
    return this.kernelRows(tf.reshape(h, [B * N, M]) as tf.Tensor2D, B, grid, consts);
  }

  private kernelRows(h: tf.Tensor2D, batch: number, grid: readonly number[], consts: GridConstants): tf.Tensor3D {
    const dist = consts.get('dist', grid, () => pairwiseSquaredDistances(grid));
    const M = this.width;
    const q = tf.reshape(linear(h, this.wq), [batch, -1, M]) as tf.Tensor3D;
    const k = tf.reshape(linear(h, this.wk), [batch, -1, M]) as tf.Tensor3D;
    const logits = tf.sub(tf.mul(bmm(q, k, false, true), 1 / Math.sqrt(this.width)), tf.mul(tf.softplus(this.logTau), dist));
    return tf.softmax(logits, -1) as tf.Tensor3D;
  }

  /** h: [B*N, M], B samples of a flattened grid -> [B*N, M]. */
  apply(h: tf.Tensor2D, batch: number, grid: readonly number[], consts: GridConstants): tf.Tensor2D {
    const [rows, M] = h.shape;
    const z = tf.reshape(linear(h, this.wv), [batch, -1, M]) as tf.Tensor3D;
    const y = tf.reshape(bmm(this.kernelRows(h, batch, grid, consts), z), [rows, M]);
    return tf.mul(tf.sub(y, h), tf.exp(this.logSigma)) as tf.Tensor2D;
  }

  sigmaValue(): number {
    return Math.exp(scalarValue(this.logSigma));
  }

  tauValue(): number {
    const t = scalarValue(this.logTau);
    return t > 20 ? t : Math.log1p(Math.exp(t));
  }
}
