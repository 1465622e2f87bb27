// Gradient clipping by global norm, as torch.nn.utils.clip_grad_norm_ (torch 1.13):
// total = ||concat(all grads)||_2 ; coef = min(1, max_norm / (total + 1e-6)) ; g <- g * coef.
// Returns the clipped grads and the norm before clipping (NaN/Inf when a gradient is not finite,
// which the trainer turns into a stop with the step named).
import * as tf from '@tensorflow/tfjs';

export function globalNorm(grads: Iterable<tf.Tensor>): number {
  const list = [...grads];
  if (list.length === 0) return 0;
  // Sum of squares in float64 on the host would differ from PyTorch's float32 reduction order
  // anyway; keep it on the backend in float32 like torch.norm(stack(norms)).
  const t = tf.tidy(() => tf.norm(tf.stack(list.map((g) => tf.norm(g)))));
  const v = t.dataSync()[0]!;
  t.dispose();
  return v;
}

export function clipByGlobalNorm<K>(grads: Map<K, tf.Tensor>, maxNorm: number): { grads: Map<K, tf.Tensor>; norm: number; coef: number } {
  const norm = globalNorm(grads.values());
  const coef = Math.min(1, Math.fround(maxNorm / (norm + 1e-6)));
  const out = new Map<K, tf.Tensor>();
  if (!Number.isFinite(norm) || coef >= 1) {
    for (const [k, g] of grads) out.set(k, tf.clone(g));
    return { grads: out, norm, coef: 1 };
  }
  for (const [k, g] of grads) out.set(k, tf.mul(g, coef));
  return { grads: out, norm, coef };
}
