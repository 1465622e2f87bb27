// Fused kernels registered per backend, and the switches the ops consult to pick a strategy.
// A fused op (e.g. householder.ts) registers one kernel name with a JS body (cpu and wasm: plain
// loops over the backends' typed arrays) and, where written, a WGSL program (webgpu). The op
// calls it through the engine when the active backend has it, and falls back to composed tf ops
// otherwise; its gradient is its own (customGrad), usually a second fused kernel.
import * as tf from './tf';

/** wasm's matMul is fast only on plain untransposed 2-D operands (see linear.ts). */
export function plainMatMulOnly(): boolean {
  return tf.getBackend() === 'wasm';
}

let fusedEnabled = true;

/** Turns the fused kernels off (composed tf ops everywhere): for parity tests and A/B benches. */
export function setFusedKernels(on: boolean): void {
  fusedEnabled = on;
}

export function hasFusedKernel(name: string): boolean {
  return fusedEnabled && tf.getKernel(name, tf.getBackend()) !== undefined;
}

export interface JsOut { shape: number[]; values: Float32Array }
/** Pure function of the inputs' values (float32) and shapes. */
export type Attrs = Record<string, number>;
export type JsKernelBody = (inputs: Float32Array[], shapes: number[][], attrs: Attrs) => JsOut[];

/** A WebGPU program as tfjs-backend-webgpu 4.22 runs it (backend.runWebGPUProgram). */
export interface WgslProgram {
  variableNames: string[];
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number];
  getUserCode(): string;
}

/**
 * One thread per index in [0, threads): `body` is WGSL run with `index: i32` in scope, reading
 * the inputs as flat arrays named after `variableNames` and writing `result[...]`. Sizes are baked
 * into the code (the thread count and output shape also into the shader key; `key` must name any
 * other baked size), so each shape compiles once.
 */
export function wgslProgram(key: string, variableNames: string[], outputShape: number[], threads: number, body: string): WgslProgram {
  const wg = 64;
  return {
    variableNames,
    outputShape,
    shaderKey: `${key}_t${threads}_o${outputShape.join('x')}`, // sizes are baked into the code: part of the key
    dispatchLayout: { x: outputShape.map((_, i) => i) },
    dispatch: [Math.ceil(threads / wg), 1, 1],
    workgroupSize: [wg, 1, 1],
    // phony reads keep every binding tfjs binds in the pipeline layout ('auto' drops unused ones,
    // and then the whole command buffer is invalid)
    getUserCode: () => `fn main(index : i32) {\n _ = uniforms.NAN;\n${variableNames.map((v) => ` _ = ${v}[0];`).join('\n')}\n if (index >= ${threads}) { return; }\n${body}\n}`,
  };
}

type WebgpuBackend = { runWebGPUProgram(p: WgslProgram, inputs: tf.TensorInfo[], dtype: string): tf.TensorInfo };
/** Runs a fused kernel's programs on webgpu; one program per output. */
export type WgslKernelBody = (inputs: tf.TensorInfo[], run: (p: WgslProgram, inputs: tf.TensorInfo[]) => tf.TensorInfo, attrs: Attrs) => tf.TensorInfo[];

type CpuBackend = { data: { get(id: object): { values: Float32Array } }; makeTensorInfo(shape: number[], dtype: string, values: Float32Array): tf.TensorInfo };
type WasmBackend = { typedArrayFromHeap(t: tf.TensorInfo): Float32Array; makeOutput(shape: number[], dtype: string): tf.TensorInfo };
type KernelArgs = { inputs: Record<string, tf.TensorInfo>; backend: unknown; attrs?: Attrs };

function checkFloat(name: string, infos: tf.TensorInfo[]): void {
  for (const t of infos) if (t.dtype !== 'float32') throw new Error(`${name}: inputs must be float32, got ${t.dtype}`);
}

/**
 * Registers `name` on cpu and wasm (JS body) and on webgpu (WGSL body, when given). Inputs are
 * passed in `order` ('name?' = optional). `wasm: false` leaves wasm on the composed ops: its SIMD
 * kernels beat a JS loop where the maths is elementwise with exp/erf (JS Math.exp is ~5 ns).
 */
export function registerFusedKernel(name: string, order: string[], js: JsKernelBody, wgsl?: WgslKernelBody, opts: { wasm?: boolean } = {}): void {
  if (tf.getKernel(name, 'cpu')) return; // idempotent (module loaded twice by a bundler)
  // inputs named with a trailing '?' are optional (variadic kernels); the others are required
  const infosOf = (args: KernelArgs) => order.flatMap((k) => {
    const t = args.inputs[k.replace(/\?$/, '')];
    if (!t && !k.endsWith('?')) throw new Error(`${name}: missing input '${k}'`);
    return t ? [t] : [];
  });
  tf.registerKernel({
    kernelName: name, backendName: 'cpu',
    kernelFunc: ((args: KernelArgs) => {
      const infos = infosOf(args);
      checkFloat(name, infos);
      const be = args.backend as CpuBackend;
      const outs = js(infos.map((t) => be.data.get(t.dataId).values), infos.map((t) => t.shape), args.attrs ?? {});
      return outs.map((o) => be.makeTensorInfo(o.shape, 'float32', o.values));
    }) as never,
  });
  if (opts.wasm !== false) tf.registerKernel({
    kernelName: name, backendName: 'wasm',
    kernelFunc: ((args: KernelArgs) => {
      const infos = infosOf(args);
      checkFloat(name, infos);
      const be = args.backend as WasmBackend;
      const outs = js(infos.map((t) => be.typedArrayFromHeap(t)), infos.map((t) => t.shape), args.attrs ?? {});
      // heap views are taken after each makeOutput: allocating may grow (and move) the heap
      return outs.map((o) => {
        const info = be.makeOutput(o.shape, 'float32');
        be.typedArrayFromHeap(info).set(o.values);
        return info;
      });
    }) as never,
  });
  if (wgsl) {
    tf.registerKernel({
      kernelName: name, backendName: 'webgpu',
      kernelFunc: ((args: KernelArgs) => {
        const infos = infosOf(args);
        checkFloat(name, infos);
        const be = args.backend as WebgpuBackend;
        return wgsl(infos, (p, ins) => be.runWebGPUProgram(p, ins, 'float32'), args.attrs ?? {});
      }) as never,
    });
  }
}

/** Runs a registered fused kernel through the engine (so it is taped and counted like any op). */
export function runFused(name: string, inputs: Record<string, tf.Tensor>, attrs: Attrs = {}): tf.Tensor[] {
  const out = tf.engine().runKernel(name, inputs as tf.NamedTensorMap, attrs as never);
  return (Array.isArray(out) ? out : [out]) as tf.Tensor[];
}
