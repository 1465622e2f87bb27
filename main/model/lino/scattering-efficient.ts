// Efficient scattering, linear in N: a linearized positive kernel phi(s) = ELU(s) + 1 with
// coordinate-encoded queries/keys (global), plus a depthwise-conv local diffusion branch,
// mixed by beta = sigmoid(gamma_loc); S(h) = exp(lambda_s) (y - h).
import * as tf from '../../ops/tf';
import { geluLinear, linear } from '../../ops/linear';
import { bmm } from '../../ops/batch-matmul';
import { depthwiseConv } from '../../ops/depthwise-conv';
import { positiveFeature as phiOf } from '../../ops/positive-feature';
import { scatteringOutput } from '../../ops/scattering-output';
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
    const [B, N, M] = h.shape;
    const [phq, phk] = this.features(tf.reshape(h, [B * N, M]) as tf.Tensor2D, B, grid, consts);
    const raw = bmm(phq, phk, false, true);
    return tf.div(raw, tf.add(tf.sum(raw, -1, true), 1e-6)) as tf.Tensor3D;
  }

  /** phi(q), phi(k) as [B, N, M] from h [B*N, M]; the coordinate encoding c [N, M] broadcasts over the batch. */
  features(h: tf.Tensor2D, batch: number, grid: readonly number[], consts: GridConstants): [tf.Tensor3D, tf.Tensor3D] {
    const p = consts.get('coords', grid, () => coordinateTensor(grid));
    const c = geluLinear(linear(p, this.coord0.weight, this.coord0.bias), this.coord2.weight, this.coord2.bias) as tf.Tensor2D;
    const scale = 1 / Math.sqrt(this.width);
    const feat = (w: tf.Tensor) => phiOf(linear(h, w) as tf.Tensor2D, c, scale);
    return [feat(this.wq), feat(this.wk)];
  }

  /** h: [B*N, M], B samples of a flattened grid -> [B*N, M]. */
  apply(h: tf.Tensor2D, batch: number, grid: readonly number[], consts: GridConstants): tf.Tensor2D {
    const [rows, M] = h.shape;
    const B = batch;
    const N = rows / B;
    const [phq, phk] = this.features(h, B, grid, consts);
    const z = tf.reshape(linear(h, this.wv), [B, N, M]) as tf.Tensor3D;
    const kv = bmm(phk, z, true); // phi(k)^T z: [B, d, M]
    // sum_j phi(kt_j) and phi(qt_i).ksum as batched products (fast on wasm, no Sum gradient)
    const ksum = bmm(phk, tf.ones([B, N, 1]) as tf.Tensor3D, true); // [B, d, 1]
    const num = bmm(phq, kv); // [B, N, M]
    const qk = bmm(phq, ksum); // [B, N, 1]
    const conv = depthwiseConv(tf.reshape(h, [B, ...grid, M]), this.localConv);
    const yLoc = linear(tf.reshape(conv, [rows, M]), this.localProj) as tf.Tensor2D;
    // y_glob = num / (qk + 1e-6), the beta mixture with y_loc and exp(lambda_s)(y - h): one fused op
    return scatteringOutput(num, qk, yLoc, h, this.localGate, this.logSigma);
  }

  betaValue(): number {
    return 1 / (1 + Math.exp(-scalarValue(this.localGate)));
  }

  sigmaValue(): number {
    return Math.exp(scalarValue(this.logSigma));
  }
}
