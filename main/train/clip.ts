// Gradient clipping by global norm, as torch.nn.utils.clip_grad_norm_ (torch 1.13):
// total = ||concat(all grads)||_2 ; coef = min(1, max_norm / (total + 1e-6)) ; g <- g * coef.
// The norm stays a tensor on the backend (flatNorm) until the trainer reads it once per step with
// the loss; a NaN/Inf norm means a gradient is not finite, which the trainer turns into a stop
// with the step named.
import * as tf from '../ops/tf';
import { sumSquares } from '../ops/sum-squares';

/** ||g||_2 of a flat gradient (every parameter's, concatenated), in float32 on the backend. */
export function flatNorm(flat: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.sqrt(sumSquares(flat)) as tf.Scalar);
}

/** PyTorch's clip coefficient (float32), 1 when no clipping applies or the norm is not finite. */
export function clipCoef(norm: number, maxNorm: number): number {
  const coef = Math.min(1, Math.fround(maxNorm / (norm + 1e-6)));
  return Number.isFinite(norm) && coef < 1 ? coef : 1;
}
