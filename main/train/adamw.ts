// AdamW exactly as PyTorch's torch.optim.AdamW: decoupled weight decay p *= 1 - lr*wd first,
// then the bias-corrected Adam update p -= lr * (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps).
// Two paths with the same state and checkpoints:
// - host (cpu; wasm with our kernels off): a WebAssembly SIMD kernel of our own over arrays in its
//   memory (float32, in PyTorch's order; adamw-host.ts); there the ~12 tiny kernels per parameter
//   tensor cost more than the whole update (bench/optimizer-path.bench.ts, Darcy M32 L4: cpu 0.74 ms
//   host against 9.9 ms device; wasm, before the heap kernel, 1.3 against 29 ms);
// - device (webgpu, tfjs-node, and wasm with our kernels): the moments (and a copy of the
//   parameters) are flat tensors and one step is ~15 kernels over all parameters at once plus one
//   that writes them back (a slice program per parameter on webgpu), so nothing leaves the GPU; on
//   wasm the ~15 kernels are one of our own, in place on those flat tensors (ops/adamw-heap.ts): the
//   flat gradient stays on the heap (the host path's read-out, copies and write-back took 1.2 ms
//   of a 4.7 ms DeepONet Burgers step; optimizer-path on wasm: 0.84 ms host against 0.23 device).
// Checked against PyTorch step by step in test/unit/train/optim.test.ts (both paths).
import * as tf from '../ops/tf';
import type { F32Entry } from '../runs/safetensors';
import { isDeviceBackend, readValues } from '../ops/backend';
import { adamwOnHeap, heapAdamWAvailable } from '../ops/adamw-heap';
import type { AdamWStepScalars } from '../ops/adamw-kernel';
import { concatFlat } from '../ops/concat-flat';
import { splitFlat } from '../ops/split-flat';
import { HostAdamWArrays } from './adamw-host';

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
  /** Moments and update as tensors on the backend (GPU backends; wasm's heap) rather than on the host. */
  readonly device: boolean;
  /** Parameter names in the order of the flat gradient applyFlat takes. */
  readonly keys: string[];
  private readonly sizes: number[];
  private mD: tf.Variable | null = null;
  private vD: tf.Variable | null = null;
  // Device path: the parameters as one flat tensor as of our last update, and the dataIds we left
  // the variables with; reused while nothing else assigned them (saves a reshape per parameter
  // and a concat every step), rebuilt from the variables otherwise (e.g. weights were loaded).
  private pD: tf.Tensor | null = null;
  private pIds: object[] = [];
  private readonly m = new Map<string, Float32Array>();
  private readonly v = new Map<string, Float32Array>();
  // Host path: the moments, gradients and host copies of the variables' values (views into one
  // WebAssembly memory), and the dataId each copy was taken from: re-read only if something else
  // assigned the variable since our last update (e.g. weights were loaded).
  private arrays: HostAdamWArrays | null = null;
  private readonly hostIds = new Map<string, object>();

  /** params: the model's variables, keyed by state_dict name. */
  constructor(private readonly params: ReadonlyMap<string, tf.Variable>, o: AdamWOptions = {}, path: { device?: boolean } = {}) {
    this.lr = o.lr ?? 1e-3;
    this.beta1 = o.beta1 ?? 0.9;
    this.beta2 = o.beta2 ?? 0.999;
    this.eps = o.eps ?? 1e-8;
    this.weightDecay = o.weightDecay ?? 1e-2; // PyTorch's default
    this.keys = [...params.keys()];
    this.sizes = [...params.values()].map((p) => p.size);
    this.device = path.device ?? (isDeviceBackend() || heapAdamWAvailable());
    if (this.device) {
      const n = this.sizes.reduce((a, b) => a + b, 0);
      this.mD = tf.tidy(() => tf.variable(tf.zeros([n]), false));
      this.vD = tf.tidy(() => tf.variable(tf.zeros([n]), false));
    } else {
      this.arrays = new HostAdamWArrays(this.sizes);
      this.keys.forEach((k, i) => {
        this.m.set(k, this.arrays!.m[i]!);
        this.v.set(k, this.arrays!.v[i]!);
      });
    }
  }

  /**
   * One step, optionally with a new learning rate (the scheduler's). grads keyed like the params
   * (state_dict names), as tensors or flat arrays; a parameter without a gradient is left alone,
   * as PyTorch does for grad None.
   */
  async apply(grads: ReadonlyMap<string, tf.Tensor | Float32Array>, lr?: number): Promise<void> {
    for (const [k, p] of this.params) {
      const g = grads.get(k);
      const n = g === undefined ? p.size : g instanceof Float32Array ? g.length : g.size;
      if (n !== p.size) throw new Error(`AdamW: gradient of '${k}' has ${n} values, parameter has ${p.size}`);
    }
    const present = this.keys.map((k) => grads.has(k));
    if (this.device) {
      const flat = tf.tidy(() => concatFlat(this.keys.map((k, i) => {
        const g = grads.get(k);
        return g === undefined ? tf.zeros([this.sizes[i]!]) : g instanceof Float32Array ? tf.tensor1d(g) : g;
      })));
      try {
        this.applyDevice(flat, lr, present.every(Boolean) ? null : present);
      } finally {
        flat.dispose();
      }
      return;
    }
    const host = new Map<string, Float32Array>();
    for (const [k, g] of grads) host.set(k, g instanceof Float32Array ? g : await readValues(g));
    await this.applyHost((k) => host.get(k), lr);
  }

  /**
   * One step on a flat gradient holding every parameter's, in `keys` order (the trainer's path):
   * a tensor on device paths, a Float32Array on host paths; times `gradScale` (the clip
   * coefficient, float32 as torch's g.mul_(coef): on host paths inside the update kernel, which
   * spared a JS loop over every value, 0.3 ms of a 5 ms DeepONet step).
   */
  async applyFlat(flat: tf.Tensor | Float32Array, lr?: number, gradScale = 1): Promise<void> {
    if (this.device) {
      const t = flat instanceof Float32Array ? tf.tensor1d(flat) : flat;
      try {
        this.applyDevice(t, lr, null, gradScale);
      } finally {
        if (t !== flat) t.dispose();
      }
      return;
    }
    const g = flat instanceof Float32Array ? flat : await readValues(flat);
    const at = new Map<string, Float32Array>();
    let off = 0;
    this.keys.forEach((k, i) => { at.set(k, g.subarray(off, off + this.sizes[i]!)); off += this.sizes[i]!; });
    await this.applyHost((k) => at.get(k), lr, gradScale);
  }

  private async applyHost(gradOf: (k: string) => Float32Array | undefined, lr?: number, gradScale = 1): Promise<void> {
    if (lr !== undefined) this.lr = lr;
    this.step += 1;
    const arrays = this.arrays!;
    const scalars = {
      decay: 1 - this.lr * this.weightDecay, beta1: this.beta1, beta2: this.beta2, eps: this.eps,
      stepSize: this.lr / (1 - this.beta1 ** this.step), sbc2: Math.sqrt(1 - this.beta2 ** this.step), gradScale,
    };
    let i = -1;
    for (const [k, p] of this.params) {
      i += 1;
      const gv = gradOf(k);
      if (gv === undefined) continue;
      const values = arrays.p[i]!;
      if (this.hostIds.get(k) !== p.dataId) values.set(await readValues(p));
      arrays.update(i, gv, scalars);
      // the cpu backend keeps the array it is given (values is updated in place): a copy there;
      // wasm copies it into its heap itself (a second copy was 0.4 ms of a 11 ms DeepONet step)
      const t = tf.tensor(tf.getBackend() === 'wasm' ? values : values.slice(), p.shape, 'float32');
      p.assign(t);
      t.dispose();
      this.hostIds.set(k, p.dataId);
    }
  }

  /**
   * The update on the backend: float32 tensor ops in PyTorch's order, or on wasm one kernel of our
   * own; `present` masks params without a gradient; the gradient is taken times `gradScale`.
   */
  private applyDevice(gIn: tf.Tensor, lr: number | undefined, present: boolean[] | null, gradScale = 1): void {
    if (lr !== undefined) this.lr = lr;
    this.step += 1;
    const { beta1: b1, beta2: b2, eps } = this;
    const bc1 = 1 - b1 ** this.step;
    const sbc2 = Math.sqrt(1 - b2 ** this.step);
    const decay = 1 - this.lr * this.weightDecay;
    const stepSize = this.lr / bc1;
    const vars = this.keys.map((k) => this.params.get(k) as tf.Variable);
    if (!present && heapAdamWAvailable()) {
      this.applyOnHeap(gIn, vars, { decay, beta1: b1, beta2: b2, stepSize, sbc2, eps, gradScale });
      return;
    }
    tf.tidy(() => {
      const g = gradScale !== 1 ? tf.mul(gIn, gradScale) : gIn;
      const m = tf.add(tf.mul(this.mD!, b1), tf.mul(g, 1 - b1));
      const v = tf.add(tf.mul(this.vD!, b2), tf.mul(tf.mul(g, g), 1 - b2));
      const current = this.pD !== null && vars.every((x, i) => x.dataId === this.pIds[i]);
      const p = current ? this.pD! : concatFlat(vars);
      let next = tf.sub(tf.mul(p, decay), tf.div(tf.mul(m, stepSize), tf.add(tf.div(tf.sqrt(v), sbc2), eps)));
      let [mN, vN] = [m, v];
      if (present) {
        const mask = tf.concat(present.map((on, i) => tf.fill([this.sizes[i]!], on ? 1 : 0, 'bool')));
        next = tf.where(mask, next, p);
        mN = tf.where(mask, m, this.mD!);
        vN = tf.where(mask, v, this.vD!);
      }
      this.mD!.assign(mN);
      this.vD!.assign(vN);
      const parts = splitFlat(next as tf.Tensor1D, vars.map((x) => x.shape));
      vars.forEach((x, i) => x.assign(parts[i]!));
      this.pD?.dispose();
      this.pD = tf.keep(next);
      this.pIds = vars.map((x) => x.dataId);
    });
  }

  /**
   * wasm: the step in place on our flat parameters and moments (adamw-heap.ts), then each parameter
   * a copy of its piece. The flat parameters are rebuilt from the variables when something else
   * assigned one since (e.g. weights were loaded).
   */
  private applyOnHeap(g: tf.Tensor, vars: tf.Variable[], s: AdamWStepScalars): void {
    if (this.pD === null || !vars.every((x, i) => x.dataId === this.pIds[i])) {
      this.pD?.dispose();
      this.pD = tf.keep(concatFlat(vars)); // a copy of our own: the kernel writes it in place
    }
    adamwOnHeap(this.pD as tf.Tensor1D, g as tf.Tensor1D, this.mD! as tf.Tensor as tf.Tensor1D, this.vD! as tf.Tensor as tf.Tensor1D, s);
    const pD = this.pD as tf.Tensor1D;
    tf.tidy(() => {
      const parts = splitFlat(pD, vars.map((x) => x.shape));
      vars.forEach((x, i) => x.assign(parts[i]!));
    });
    this.pIds = vars.map((x) => x.dataId);
  }

  /** The moments as checkpoint entries (device path: read from the backend). */
  async getState(): Promise<AdamWState> {
    const entries = async (host: Map<string, Float32Array>, dev: tf.Variable | null) => {
      const flat = dev ? await readValues(dev) : null;
      const out = new Map<string, F32Entry>();
      let off = 0;
      this.keys.forEach((k, i) => {
        const p = this.params.get(k)!;
        const n = this.sizes[i]!;
        out.set(k, { shape: p.shape, data: flat ? flat.slice(off, off + n) : Float32Array.from(host.get(k)!) });
        off += n;
      });
      return out;
    };
    return { step: this.step, expAvg: await entries(this.m, this.mD), expAvgSq: await entries(this.v, this.vD) };
  }

  setState(s: AdamWState, source = 'optimizer state'): void {
    for (const [name, src, host, dev] of [['expAvg', s.expAvg, this.m, this.mD], ['expAvgSq', s.expAvgSq, this.v, this.vD]] as const) {
      const flat = dev ? new Float32Array(dev.size) : null;
      let off = 0;
      this.keys.forEach((k, i) => {
        const n = this.sizes[i]!;
        const e = src.get(k);
        if (!e) throw new Error(`${source}: field '${name}.${k}' is missing`);
        if (e.data.length !== n) throw new Error(`${source}: field '${name}.${k}' has ${e.data.length} values, expected ${n}`);
        if (flat) flat.set(e.data, off);
        else host.get(k)!.set(e.data);
        off += n;
      });
      if (dev && flat) {
        const t = tf.tensor1d(flat);
        dev.assign(t);
        t.dispose();
      }
    }
    this.step = s.step;
  }

  dispose(): void {
    this.mD?.dispose();
    this.vD?.dispose();
    this.pD?.dispose();
    this.mD = this.vD = this.pD = null;
    this.pIds = [];
    this.m.clear();
    this.v.clear();
    this.hostIds.clear();
    this.arrays = null;
  }
}
