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
  /** Extra fields of the uniform struct ('name : i32, ...'), values in `uniformData`. */
  uniforms?: string;
  uniformData?: { type: 'int32' | 'float32'; data: number[] }[];
  getUserCode(): string;
}

/** The most input elements one GPU thread may read in a serial walk (the structural guard's bound). */
export const MAX_SERIAL_WALK = 4096;

export interface FusedProgramSpec {
  /** Input names in binding order (flat arrays in WGSL). */
  variableNames: string[];
  outputShape: number[];
  /** Threads that do work (one per `index` in [0, threads)). */
  threads: number;
  /** WGSL run with `index: i32` in scope; sizes read as `uniforms.<name>`. */
  body: string;
  /** Sizes (i32 uniforms), in order; `nThreads` is added. Not part of the shader key. */
  sizes?: Record<string, number>;
  /** Scalars (f32 uniforms). */
  scalars?: Record<string, number>;
  /** Anything baked into the code besides the class (branch count, tile): part of the shader key. */
  variant?: string;
  /** Input elements the program's threads read in total (default: threads): the guard divides it by the threads dispatched. */
  work?: number;
  workgroupSize?: number;
  /** WGSL at module scope before main (helper functions, workgroup arrays). */
  prelude?: string;
  /** false: no early return for idle threads (a workgroup reduction needs every thread at its barriers). */
  guardThreads?: boolean;
}

/**
 * A fused WGSL program. Each kernel's program is a subclass with its own name, because tfjs's
 * profiler (tf.time's getExtraProfileInfo) labels a program by `constructor.name`. Shapes are
 * uniforms, not baked into the code, so one pipeline serves every batch size and grid: the shader
 * key is the class name plus `variant` (tfjs adds the ranks and dtypes of the operands).
 */
export class FusedProgram implements WgslProgram {
  variableNames: string[];
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number];
  uniforms: string;
  uniformData: { type: 'int32' | 'float32'; data: number[] }[];
  /** See FusedProgramSpec.work. */
  work: number;
  /** The output's shape; tfjs runs the program on flat (1-D) views, see registerFusedKernel. */
  resultShape: number[];
  private readonly code: string;

  constructor(spec: FusedProgramSpec) {
    const wg = spec.workgroupSize ?? 64;
    const ints = { ...spec.sizes, nThreads: spec.threads };
    const floats = spec.scalars ?? {};
    this.variableNames = spec.variableNames;
    this.resultShape = spec.outputShape;
    this.outputShape = [spec.outputShape.reduce((a, b) => a * b, 1)];
    this.shaderKey = `${this.constructor.name}${spec.variant ? `_${spec.variant}` : ''}`;
    this.dispatchLayout = { x: [0] };
    this.dispatch = [Math.max(1, Math.ceil(spec.threads / wg)), 1, 1];
    this.workgroupSize = [wg, 1, 1];
    this.uniforms = [...Object.keys(ints).map((k) => `${k} : i32,`), ...Object.keys(floats).map((k) => `${k} : f32,`)].join(' ');
    this.uniformData = [
      ...Object.values(ints).map((v) => ({ type: 'int32' as const, data: [v] })),
      ...Object.values(floats).map((v) => ({ type: 'float32' as const, data: [v] })),
    ];
    this.work = spec.work ?? spec.threads;
    // phony reads keep every binding tfjs binds in the pipeline layout ('auto' drops unused ones,
    // and then the whole command buffer is invalid)
    const phony = [' _ = uniforms.NAN;', ...spec.variableNames.map((v) => ` _ = ${v}[0];`)].join('\n');
    const guard = spec.guardThreads === false ? '' : ' if (index >= uniforms.nThreads) { return; }\n';
    this.code = `${spec.prelude ?? ''}\nfn main(index : i32) {\n${phony}\n${guard}${spec.body}\n}`;
  }

  getUserCode(): string {
    return this.code;
  }
}

export type ProgramClass = new (spec: FusedProgramSpec) => FusedProgram;

/** Sums each output's partial sums over the chunks of a reduction (second pass of `reduction`). */
export class LinoSumPartialsProgram extends FusedProgram {}

const RED_WG = 256;
const RED_PER_THREAD = 64;

export interface ReductionSpec {
  variableNames: string[];
  outputShape: number[];
  /** Outputs (O) and the terms summed into each (L). */
  outputs: number;
  length: number;
  /** WGSL expression of `o` (output) and `r` (term index), both i32; or `accumulate`, statements adding to `acc`. */
  term?: string;
  accumulate?: string;
  /** WGSL statements with `o` in scope, run once per thread before its walk. */
  setup?: string;
  /** 'columns': consecutive outputs are adjacent in memory (a sum over rows), 32 outputs per workgroup; 'rows': one output per workgroup, its terms adjacent. */
  layout: 'rows' | 'columns';
  /** Elements read per term (for the guard's count). */
  termReads?: number;
  sizes?: Record<string, number>;
  scalars?: Record<string, number>;
  variant?: string;
}

/** How a reduction of `length` terms is cut: threads per output in a workgroup, rows per chunk, chunks. */
export function reductionPlan(layout: 'rows' | 'columns', outputs: number, length: number) {
  const ox = layout === 'columns' ? 32 : 1;
  const ry = RED_WG / ox;
  // each thread walks at most RED_PER_THREAD terms, unless that would leave more than
  // MAX_SERIAL_WALK partial sums per output for the second pass
  const perThread = Math.max(RED_PER_THREAD, Math.ceil(length / (ry * MAX_SERIAL_WALK)));
  const chunk = ry * perThread;
  const chunks = Math.max(1, Math.ceil(length / chunk));
  return { ox, ry, chunk, chunks, groups: Math.ceil(outputs / ox) };
}

/**
 * sum over r in [0, L) of term(o, r) for each output o in [0, O), in parallel: workgroups of 256
 * threads each sum a chunk of the terms (every thread at most 64 terms, strided so neighbours read
 * neighbouring memory), a shared-memory tree adds the threads' sums, and a second pass adds the
 * chunks' partial sums per output (at most MAX_SERIAL_WALK). One chunk: no second pass.
 */
export function runReduction(run: (p: WgslProgram, inputs: tf.TensorInfo[]) => tf.TensorInfo, Partial: ProgramClass, spec: ReductionSpec, inputs: tf.TensorInfo[]): tf.TensorInfo {
  const { ox, ry, chunk, chunks, groups } = reductionPlan(spec.layout, spec.outputs, spec.length);
  const O = spec.outputs;
  const body = `let l = index % ${RED_WG}; let wg = index / ${RED_WG};
  let og = wg % uniforms.redGroups; let ch = wg / uniforms.redGroups;
  let o = og * ${ox} + l % ${ox}; let ry = l / ${ox};
  var acc = 0.0;
  if (o < uniforms.redOutputs && ch < uniforms.redChunks) {
    ${spec.setup ?? ''}
    let r1 = min((ch + 1) * uniforms.redChunk, uniforms.redLength);
    for (var r = ch * uniforms.redChunk + ry; r < r1; r += ${ry}) { ${spec.accumulate ?? `acc += ${spec.term};`} }
  }
  linoRed[l] = acc;
  workgroupBarrier();
  for (var s = ${ry / 2}; s > 0; s = s / 2) {
    if (ry < s) { linoRed[l] = linoRed[l] + linoRed[l + s * ${ox}]; }
    workgroupBarrier();
  }
  if (ry == 0 && o < uniforms.redOutputs && ch < uniforms.redChunks) { result[ch * uniforms.redOutputs + o] = linoRed[l]; }`;
  const partial = run(new Partial({
    variableNames: spec.variableNames, outputShape: [chunks * O], threads: groups * chunks * RED_WG, body,
    sizes: { ...spec.sizes, redOutputs: O, redLength: spec.length, redChunk: chunk, redChunks: chunks, redGroups: groups },
    scalars: spec.scalars, variant: `${spec.layout}${spec.variant ? `_${spec.variant}` : ''}`,
    work: O * spec.length * (spec.termReads ?? 1), workgroupSize: RED_WG, guardThreads: false,
    prelude: `var<workgroup> linoRed : array<f32, ${RED_WG}>;`,
  }), inputs);
  if (chunks === 1) return { ...partial, shape: spec.outputShape };
  const sum = run(new LinoSumPartialsProgram({
    variableNames: ['P'], outputShape: spec.outputShape, threads: O, work: O * chunks,
    sizes: { redOutputs: O, redChunks: chunks },
    body: `var acc = 0.0;\n  for (var c = 0; c < uniforms.redChunks; c++) { acc += P[c * uniforms.redOutputs + index]; }\n  result[index] = acc;`,
  }), [partial]);
  return sum;
}

type WebgpuBackend = {
  runWebGPUProgram(p: WgslProgram, inputs: tf.TensorInfo[], dtype: string, uniforms?: WgslProgram['uniformData']): tf.TensorInfo;
  disposeData(id: object): void;
};
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
        // intermediates (a reduction's partial sums) are freed once the outputs are recorded
        // Fused programs read and write flat arrays: they run on 1-D views, so tfjs's shader key
        // (which adds the operands' ranks and which of them broadcast or equal the output) does
        // not change with the batch size or the grid
        const made: tf.TensorInfo[] = [];
        const flat = (t: tf.TensorInfo): tf.TensorInfo => ({ dataId: t.dataId, shape: [t.shape.reduce((a, b) => a * b, 1)], dtype: t.dtype });
        const outs = wgsl(infos, (p, ins) => {
          const fused = p instanceof FusedProgram;
          const t = be.runWebGPUProgram(p, fused ? ins.map(flat) : ins, 'float32', p.uniformData);
          made.push(t);
          return fused ? { ...t, shape: p.resultShape } : t;
        }, args.attrs ?? {});
        const kept = new Set(outs.map((o) => o.dataId));
        for (const t of made) if (!kept.has(t.dataId)) be.disposeData(t.dataId);
        return outs;
      }) as never,
    });
  }
}

/** Runs a registered fused kernel through the engine (so it is taped and counted like any op). */
export function runFused(name: string, inputs: Record<string, tf.Tensor>, attrs: Attrs = {}): tf.Tensor[] {
  const out = tf.engine().runKernel(name, inputs as tf.NamedTensorMap, attrs as never);
  return (Array.isArray(out) ? out : [out]) as tf.Tensor[];
}
