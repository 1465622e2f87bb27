// AdamW exactly as PyTorch's torch.optim.AdamW: decoupled weight decay p *= 1 - lr*wd first,
// then the bias-corrected Adam update p -= lr * (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps).
// The update runs in plain JS over Float32Arrays (float64 arithmetic, one rounding per value):
// on tfjs backends the ~12 tiny kernels per parameter tensor cost more than the whole update,
// and data-parallel workers deliver their gradients as Float32Arrays anyway.
// (Same design as the model bench's minimal version; the training engine adds the options
// object, checkpointable state and PyTorch's "no gradient, no update" rule.)
// Checked against PyTorch step by step in test/unit/train/optim.test.ts.
import * as tf from '@tensorflow/tfjs';
import type { F32Entry } from '../runs/safetensors';

export interface AdamWOptions {
  lr?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
}

/** The paper's values (lr 1e-3, wd 1e-5, betas 0.9/0.999, eps 1e-8). */
export const ADAMW_DEFAULTS = { lr: 1e-3, weightDecay: 1e-5, beta1: 0.9, beta2: 0.999, eps: 1e-8 } as const;

/** What a checkpoint stores: the step count and both moments of every parameter. */
export interface AdamWState {
  step: number;
  expAvg: Map<string, F32Entry>;
  expAvgSq: Map<string, F32Entry>;
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
  // Host copies of the variables' values and the dataId they were taken from: re-read only if
  // something else assigned the variable since our last update (e.g. weights were loaded).
  private readonly host = new Map<string, { values: Float32Array; dataId: object }>();

  /** params: the model's variables (apply) or master copies as flat arrays (applyArrays). */
  constructor(private readonly params: ReadonlyMap<string, tf.Variable | Float32Array>, o: AdamWOptions = {}) {
    this.lr = o.lr ?? 1e-3;
    this.beta1 = o.beta1 ?? 0.9;
    this.beta2 = o.beta2 ?? 0.999;
    this.eps = o.eps ?? 1e-8;
    this.weightDecay = o.weightDecay ?? 1e-2; // PyTorch's default
    for (const [k, p] of params) {
      const n = p instanceof Float32Array ? p.length : p.size;
      this.m.set(k, new Float32Array(n));
      this.v.set(k, new Float32Array(n));
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
      p[i] = p[i]! * decay - (stepSize * mi) / (Math.sqrt(vi) / sbc2 + eps);
    }
  }

  /**
   * One step, optionally with a new learning rate (the scheduler's). grads keyed like the params
   * (state_dict names), as tensors or flat arrays; a parameter without a gradient is left alone,
   * as PyTorch does for grad None.
   */
  apply(grads: ReadonlyMap<string, tf.Tensor | Float32Array>, lr?: number): void {
    if (lr !== undefined) this.lr = lr;
    this.step += 1;
    for (const [k, p] of this.params) {
      if (p instanceof Float32Array) throw new Error('AdamW.apply needs tf.Variables; use applyArrays for arrays');
      const g = grads.get(k);
      if (g === undefined) continue;
      const gv = g instanceof Float32Array ? g : (g.dataSync() as Float32Array);
      if (gv.length !== p.size) throw new Error(`AdamW: gradient of '${k}' has ${gv.length} values, parameter has ${p.size}`);
      let h = this.host.get(k);
      if (!h || h.dataId !== p.dataId) h = { values: Float32Array.from(p.dataSync() as Float32Array), dataId: p.dataId };
      this.updateArray(k, h.values, gv);
      // a copy: the cpu backend keeps the array it is given, and h.values is updated in place
      const t = tf.tensor(h.values.slice(), p.shape, 'float32');
      p.assign(t);
      t.dispose();
      this.host.set(k, { values: h.values, dataId: p.dataId });
    }
  }

  /**
   * One step over plain arrays (data-parallel training keeps the master parameters as
   * Float32Arrays and broadcasts them to the workers): params updated in place.
   */
  applyArrays(params: ReadonlyMap<string, Float32Array>, grads: ReadonlyMap<string, Float32Array>): void {
    this.step += 1;
    for (const [k, p] of params) {
      const g = grads.get(k);
      if (!g || g.length !== p.length) throw new Error(`AdamW: gradient of '${k}' missing or of the wrong length`);
      this.updateArray(k, p, g);
    }
  }

  getState(): AdamWState {
    const dump = (src: Map<string, Float32Array>) => {
      const out = new Map<string, F32Entry>();
      for (const [k, a] of src) {
        const p = this.params.get(k)!;
        // Master copies (data-parallel training) are flat: their state is stored flat too.
        out.set(k, { shape: p instanceof Float32Array ? [p.length] : p.shape, data: Float32Array.from(a) });
      }
      return out;
    };
    return { step: this.step, expAvg: dump(this.m), expAvgSq: dump(this.v) };
  }

  setState(s: AdamWState, source = 'optimizer state'): void {
    for (const [name, src, dst] of [['expAvg', s.expAvg, this.m], ['expAvgSq', s.expAvgSq, this.v]] as const) {
      for (const [k, a] of dst) {
        const e = src.get(k);
        if (!e) throw new Error(`${source}: field '${name}.${k}' is missing`);
        if (e.data.length !== a.length) throw new Error(`${source}: field '${name}.${k}' has ${e.data.length} values, expected ${a.length}`);
        a.set(e.data);
      }
    }
    this.step = s.step;
  }

  dispose(): void {
    this.m.clear();
    this.v.clear();
    this.host.clear();
  }
}
