// The host AdamW's arrays in one WebAssembly memory of their own, updated by
// main/ops/wasm/adamw.wat (float32, SIMD, PyTorch's order): each parameter's host copy of its
// values, its gradient and both moments are views into that memory, laid out once and never
// grown (a grown memory would detach the views). The JS loop it replaces took ~3.7 ns a value in
// float64 (18 ms of an FNO step at the paper's size, 4.7M parameters); the kernel ~0.6.
import { adamwWasm } from '../ops/wasm/adamw-wasm';
import { callAdamW, type AdamWKernel, type AdamWStepScalars } from '../ops/adamw-kernel';
import { wasmBytes, webAssembly } from '../util/webassembly';

/** 4 GiB, wasm32's most: four arrays of 4-byte values. */
const MAX_VALUES = 2 ** 32 / 16;

export class HostAdamWArrays {
  /** Per parameter: its values (the host copy), gradient and moments. */
  readonly p: Float32Array[];
  readonly g: Float32Array[];
  readonly m: Float32Array[];
  readonly v: Float32Array[];
  private readonly offsets: number[];
  private readonly region: number;
  private readonly kernel: AdamWKernel;

  constructor(sizes: readonly number[]) {
    // each parameter starts on 16 bytes, for the four-wide loads
    this.offsets = [];
    let total = 0;
    for (const n of sizes) { this.offsets.push(total); total += Math.ceil(n / 4) * 4; }
    if (total > MAX_VALUES) throw new Error(`AdamW: ${total} parameter values are more than the host optimizer holds (${MAX_VALUES}, 4 GiB of float32 for values, gradients and both moments)`);
    this.region = total;
    const memory = new webAssembly.Memory({ initial: Math.max(1, Math.ceil((16 * total) / 65536)) });
    const exports = new webAssembly.Instance(new webAssembly.Module(wasmBytes(adamwWasm.plain)), { env: { memory } }).exports;
    this.kernel = exports.adamw as AdamWKernel;
    const views = (r: number) => sizes.map((n, i) => new Float32Array(memory.buffer, 4 * (r * total + this.offsets[i]!), n));
    [this.p, this.g, this.m, this.v] = [views(0), views(1), views(2), views(3)];
  }

  /** One step of parameter `i` with gradient `grad` (copied in unless it is already g[i]). */
  update(i: number, grad: Float32Array, s: AdamWStepScalars): void {
    if (grad !== this.g[i]) this.g[i]!.set(grad);
    const byte = (r: number) => 4 * (r * this.region + this.offsets[i]!);
    callAdamW(this.kernel, byte(0), byte(1), byte(2), byte(3), this.p[i]!.length, s);
  }
}
