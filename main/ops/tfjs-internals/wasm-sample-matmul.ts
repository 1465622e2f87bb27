// One wasm kernel for a batch of plain 2-D products, op(a_i) x op(b_i) -> out_i, i < B. tfjs's wasm
// BatchMatMul is fast (XNNPACK) only on a single untransposed 2-D product and a scalar loop
// otherwise, so ops/batch-matmul.ts split the batch in tf ops: per sample a Slice (a copy) and a
// Reshape of each operand, explicit Transposes, the product, and one Pack (a copy) of the results,
// about 20 kernels a batched product at B = 4 (LiNO's efficient scattering: 1,100 of a training
// step's 3,200 kernels). Here each sample's operands are views into the inputs' heap memory (a
// tensor registered at an offset, as the backend's own makeOutput does), transposed where asked by
// the fast Transpose, multiplied by the backend's own BatchMatMul function straight into a view of
// the output: no copies of the operands or the result, and one kernel for the engine to run.
import * as tf from '../tf';
import { withThreadPool } from './wasm-threads';
import { fitsMatMul, fitsMatMulTA, matMulOnHeap, matMulTAOnHeap, oursTakes } from './wasm-matmul';
import { heapOffset as offset } from './wasm-heap';

export const SAMPLE_MATMUL = 'LinoSampleMatMul';

type Info = tf.TensorInfo;
interface WasmModule {
  cwrap(name: string, ret: null, args: string[]): (...a: unknown[]) => void;
  tfjs: { registerTensor(id: number, size: number, offset: number): void; disposeData(id: number): void };
}
interface WasmBackend {
  wasm: WasmModule;
  dataIdMap: { get(d: object): { id: number; memoryOffset: number }; delete(d: object): void };
  makeOutput(shape: number[], dtype: string, memoryOffset?: number): Info;
  disposeData(d: object): void;
}
export type TransposeFn = (x: Info, perm: number[], backend: never) => Info;

const bound = new WeakMap<WasmModule, (...a: unknown[]) => void>();
/** The backend's BatchMatMul function (a_id, a_shape, a_rank, b_id, b_shape, b_rank, ta, tb, out_id). */
function batchMatMulFn(m: WasmModule): (...a: unknown[]) => void {
  let f = bound.get(m);
  if (!f) {
    f = m.cwrap('BatchMatMul', null, ['number', 'array', 'number', 'number', 'array', 'number', 'number', 'number', 'number']);
    bound.set(m, f);
  }
  return f;
}

const shapeBytes = (s: number[]) => new Uint8Array(new Int32Array(s).buffer);

/** A tensor over `shape`-sized floats of `x`'s memory from element `offset`; `release` unregisters it without freeing. */
function view(be: WasmBackend, x: Info, offset: number, shape: number[]): Info {
  return be.makeOutput(shape, 'float32', be.dataIdMap.get(x.dataId).memoryOffset + 4 * offset);
}
function release(be: WasmBackend, v: Info): void {
  be.wasm.tfjs.disposeData(be.dataIdMap.get(v.dataId).id); // also drops XNNPACK's operator cached on it
  be.dataIdMap.delete(v.dataId);
}

/** Registers the kernel on wasm (idempotent); `transpose` is the fast wasm Transpose. */
export function registerSampleMatMul(transpose: TransposeFn): void {
  if (tf.getKernel(SAMPLE_MATMUL, 'wasm')) return;
  tf.registerKernel({
    kernelName: SAMPLE_MATMUL, backendName: 'wasm',
    kernelFunc: ((args: { inputs: { a: Info; b: Info }; backend: WasmBackend; attrs: { transposeA: boolean; transposeB: boolean } }) => {
      const { a, b } = args.inputs;
      const be = args.backend;
      const { transposeA: ta, transposeB: tb } = args.attrs;
      if (a.dtype !== 'float32' || b.dtype !== 'float32' || a.shape.length !== 3 || b.shape.length !== 3 || a.shape[0] !== b.shape[0]) {
        throw new Error(`${SAMPLE_MATMUL}: expected float32 [B, ., .] operands with one batch, got [${a.shape.join(', ')}] ${a.dtype} and [${b.shape.join(', ')}] ${b.dtype}`);
      }
      const [B, a1, a2] = a.shape as [number, number, number];
      const [, b1, b2] = b.shape as [number, number, number];
      const [n, k] = ta ? [a2, a1] : [a1, a2];
      const [k2, m] = tb ? [b2, b1] : [b1, b2];
      if (k !== k2) throw new Error(`${SAMPLE_MATMUL}: inner sizes ${k} and ${k2} differ`);
      const out = be.makeOutput([B, n, m], 'float32');
      const mm = batchMatMulFn(be.wasm);
      const id = (t: Info) => be.dataIdMap.get(t.dataId).id;
      // a_i b_i and a_i^T b_i: our kernels read both as they lie (no transpose, no packing; wasm-matmul.ts)
      if (!tb && (ta ? fitsMatMulTA(n, m) : fitsMatMul(m)) && oursTakes(2 * n * k * m)) {
        for (let i = 0; i < B; i++) {
          const [pa, pb, pc] = [offset(be, a) + 4 * i * a1 * a2, offset(be, b) + 4 * i * b1 * b2, offset(be, out) + 4 * i * n * m];
          if (ta) matMulTAOnHeap(be as never, pa, pb, pc, k, n, m);
          else matMulOnHeap(be as never, pa, pb, pc, n, k, m);
        }
        return out;
      }
      for (let i = 0; i < B; i++) {
        const av = view(be, a, i * a1 * a2, [1, a1, a2]);
        const bv = view(be, b, i * b1 * b2, [1, b1, b2]);
        const ov = view(be, out, i * n * m, [1, n, m]);
        // a transpose with a size-1 side moves nothing: the view is read with the swapped shape
        const ao = ta && a1 !== 1 && a2 !== 1 ? transpose(av, [0, 2, 1], be as never) : av;
        const bo = tb && b1 !== 1 && b2 !== 1 ? transpose(bv, [0, 2, 1], be as never) : bv;
        withThreadPool(2 * n * k * m, () => mm(id(ao), shapeBytes([1, n, k]), 3, id(bo), shapeBytes([1, k, m]), 3, false, false, id(ov)));
        if (ao !== av) be.disposeData(ao.dataId);
        if (bo !== bv) be.disposeData(bo.dataId);
        for (const v of [av, bv, ov]) release(be, v);
      }
      return out;
    }) as never,
  });
}
