// LiNO's three GEMM products at M = 32, 64, 128 (rows R = B*N): the tiled GEMM of main/ops/gemm
// against tfjs's matMul (MatMulPacked on webgpu) in the same run, and PyTorch's torch.matmul
// (tools/parity/gemm_bench.py) where given. Shared by the GPU bench (bench/gpu/entry.ts) and
// `npm run bench gemm` (SwiftShader). Per product: median over rounds of the mean of `iters`
// back-to-back calls, the queue drained by one read at the end of each round.
import * as tf from '../main/ops/tf';
import { gemm } from '../main/ops/gemm/gemm-kernel';

export const GEMM_WIDTHS = [32, 64, 128];

export interface GemmRow { key: string; product: string; m: number; rows: number; oursMs: number; tfjsMs: number }

const PRODUCTS: { product: string; ours: (x: tf.Tensor2D, dy: tf.Tensor2D, w: tf.Tensor2D) => tf.Tensor; tfjs: (x: tf.Tensor2D, dy: tf.Tensor2D, w: tf.Tensor2D) => tf.Tensor }[] = [
  { product: 'forward x W^T', ours: (x, _, w) => gemm(x, w, { transB: true }), tfjs: (x, _, w) => tf.matMul(x, w, false, true) },
  { product: 'dX = dY W', ours: (_, dy, w) => gemm(dy, w), tfjs: (_, dy, w) => tf.matMul(dy, w) },
  { product: 'dW = dY^T X', ours: (x, dy) => gemm(dy, x, { transA: true }), tfjs: (x, dy) => tf.matMul(dy, x, true, false) },
];

async function timeIt(f: () => tf.Tensor, iters: number, rounds: number): Promise<number> {
  tf.dispose(f()); // compile
  await tf.ready();
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    let last: tf.Tensor | undefined;
    for (let i = 0; i < iters; i++) { last?.dispose(); last = f(); }
    await last!.data();
    last!.dispose();
    ms.push((performance.now() - t0) / iters);
  }
  return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
}

/** Times both implementations on the active backend (webgpu). */
export async function timeGemms(rows: number, o: { iters: number; rounds: number; widths?: number[] }): Promise<GemmRow[]> {
  const out: GemmRow[] = [];
  for (const m of o.widths ?? GEMM_WIDTHS) {
    const [x, dy, w] = [tf.randomNormal([rows, m], 0, 1, 'float32', 1), tf.randomNormal([rows, m], 0, 1, 'float32', 2), tf.randomNormal([m, m], 0, 1, 'float32', 3)] as tf.Tensor2D[];
    for (const p of PRODUCTS) {
      const oursMs = await timeIt(() => p.ours(x!, dy!, w!), o.iters, o.rounds);
      const tfjsMs = await timeIt(() => p.tfjs(x!, dy!, w!), o.iters, o.rounds);
      out.push({ key: `${p.product} M${m}`, product: p.product, m, rows, oursMs, tfjsMs });
    }
    tf.dispose([x!, dy!, w!]);
  }
  return out;
}

/** A Markdown table; `torch` maps a row's key to PyTorch's ms (absent: not measured). */
export function gemmTable(rows: GemmRow[], torch: Record<string, number> | undefined, torchLabel: string): string {
  const f = (x: number | undefined) => (x === undefined ? '-' : x < 1 ? x.toFixed(3) : x.toFixed(2));
  const lines = [
    `| product (R = ${rows[0]?.rows ?? '?'} rows) | M | ours ms | tfjs MatMulPacked ms | ${torchLabel} ms | tfjs / ours | ours / ${torchLabel} |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const t = torch?.[r.key];
    lines.push(`| ${r.product} | ${r.m} | ${f(r.oursMs)} | ${f(r.tfjsMs)} | ${f(t)} | ${(r.tfjsMs / r.oursMs).toFixed(2)} | ${t ? (r.oursMs / t).toFixed(2) : '-'} |`);
  }
  return lines.join('\n');
}
