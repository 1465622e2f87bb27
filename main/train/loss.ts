// The protocol's objective and metrics (docs/protocol.md):
// loss = MSE(pred, y) + mean_b relL2_b on normalized fields, relL2_b = ||pred_b - y_b|| / (||y_b|| + 1e-12)
// over every point and channel of sample b. relL2 is reported in two conventions: on normalized
// fields (the paper's) and on decoded physical fields (FNO's published baselines).
import * as tf from '../ops/tf';

export const REL_EPS = 1e-12;

/** Scalar unit-Gaussian statistics: encoded = (v - mean) / (std + eps). */
export interface NormStats {
  mean: number;
  std: number;
  eps: number;
}

export function decode(t: tf.Tensor, s: NormStats): tf.Tensor {
  return tf.tidy(() => tf.add(tf.mul(t, s.std + s.eps), s.mean));
}

function flat(t: tf.Tensor): tf.Tensor2D {
  return tf.reshape(t, [t.shape[0]!, -1]) as tf.Tensor2D;
}

/** Per-sample relative L2 error, [B]. */
export function relL2PerSample(pred: tf.Tensor, y: tf.Tensor): tf.Tensor1D {
  return tf.tidy(() => {
    const p = flat(pred);
    const t = flat(y);
    const num = tf.sqrt(tf.sum(tf.square(tf.sub(p, t)), 1));
    const den = tf.add(tf.sqrt(tf.sum(tf.square(t), 1)), REL_EPS);
    return tf.div(num, den) as tf.Tensor1D;
  });
}

/** Per-sample relative L2 on decoded fields, [B]. */
export function relL2DecodedPerSample(pred: tf.Tensor, y: tf.Tensor, stats: NormStats): tf.Tensor1D {
  return tf.tidy(() => relL2PerSample(decode(pred, stats), decode(y, stats)));
}

export function mse(pred: tf.Tensor, y: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.square(tf.sub(pred, y))) as tf.Scalar);
}

/** The training objective on a whole batch: MSE + mean relL2. */
export function objective(pred: tf.Tensor, y: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.add(mse(pred, y), tf.mean(relL2PerSample(pred, y))) as tf.Scalar);
}

/**
 * The part of a batch's objective one micro-batch contributes, so that the micro-batch terms
 * add up to `objective` of the whole batch: MSE_mb * (b / B) + sum(relL2_mb) / B.
 * Every sample has the same number of elements, so MSE splits by sample count.
 */
export function microObjective(pred: tf.Tensor, y: tf.Tensor, batchSize: number): { loss: tf.Scalar; mse: tf.Scalar; relSum: tf.Scalar } {
  return tf.tidy(() => {
    const b = pred.shape[0]!;
    const m = mse(pred, y);
    const relSum = tf.sum(relL2PerSample(pred, y)) as tf.Scalar;
    const loss = tf.add(tf.mul(m, b / batchSize), tf.div(relSum, batchSize)) as tf.Scalar;
    return { loss, mse: m, relSum };
  });
}
