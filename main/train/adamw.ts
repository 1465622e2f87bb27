// AdamW exactly as PyTorch's torch.optim.AdamW: decoupled weight decay p *= 1 - lr*wd first,
// then the bias-corrected Adam update p -= lr * (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps).
// The update runs in plain JS over Float32Arrays (float64 arithmetic, one rounding per value):
// on tfjs backends the ~12 tiny kernels per parameter tensor cost more than the whole update,
// and data-parallel workers deliver their gradients as Float32Arrays anyway.
// Minimal: written for the model bench; the training engineer owns this folder.
import * as tf from '@tensorflow/tfjs';

export interface AdamWOptions {
  lr?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
}

export class AdamW {
  lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  step = 0;
  private readonly m = new Map<string, Float32Array>();
  private readonly v = new Map<string, Float32Array>();

  constructor(private readonly params: ReadonlyMap<string, tf.Variable>, o: AdamWOptions = {}) {
    this.lr = o.lr ?? 1e-3;
    this.beta1 = o.beta1 ?? 0.9;
    this.beta2 = o.beta2 ?? 0.999;
    this.eps = o.eps ?? 1e-8;
    this.weightDecay = o.weightDecay ?? 1e-2; // PyTorch's default
    for (const [k, p] of params) {
      this.m.set(k, new Float32Array(p.size));
      this.v.set(k, new Float32Array(p.size));
    }
  }

  /** Updates a parameter's values in place given its gradient (both flat, same length). */
  updateArray(key: string, p: Float32Array, g: ArrayLike<number>): void {
    const m = this.m.get(key)!;
    const v = this.v.get(key)!;
    const { beta1: b1, beta2: b2, eps, lr } = this;
    const bc1 = 1 - b1 ** this.step;
    const sbc2 = Math.sqrt(1 - b2 ** this.step);
    const decay = 1 - lr * this.weightDecay;
    const stepSize = lr / bc1;
    for (let i = 0; i < p.length; i++) {
      const gi = g[i]!;
      const mi = (m[i] = b1 * m[i]! + (1 - b1) * gi);
      const vi = (v[i] = b2 * v[i]! + (1 - b2) * gi * gi);
      p[i] = p[i]! * decay - stepSize * mi / (Math.sqrt(vi) / sbc2 + eps);
    }
  }

  /** One step. grads keyed like the params (state_dict names), as tensors or flat arrays; missing = zero. */
  apply(grads: ReadonlyMap<string, tf.Tensor | Float32Array>): void {
    this.step += 1;
    for (const [k, p] of this.params) {
      const g = grads.get(k);
      const gv = g === undefined ? new Float32Array(p.size) : g instanceof Float32Array ? g : (g.dataSync() as Float32Array);
      if (gv.length !== p.size) throw new Error(`AdamW: gradient of '${k}' has ${gv.length} values, parameter has ${p.size}`);
      const pv = Float32Array.from(p.dataSync() as Float32Array);
      this.updateArray(k, pv, gv);
      const t = tf.tensor(pv, p.shape, 'float32');
      p.assign(t);
      t.dispose();
    }
  }

  dispose(): void {
    this.m.clear();
    this.v.clear();
  }
}
