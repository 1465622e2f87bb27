// FNO's spectral convolution (SpectralConv1d/2d of the original), channels-last: truncated DFT as
// matMuls with precomputed cos/sin matrices (./dft.ts; their transposes kept for the gradient),
// the per-mode complex channel mixing as one op on those layouts (ops/spectral-mix.ts), and the
// inverse as matMuls. Complex weights are variables with a trailing real/imag axis of 2
// (torch.view_as_real).
import * as tf from '../../ops/tf';
import { fixedMatMul } from '../../ops/fixed-matmul';
import { spectralMix } from '../../ops/spectral-mix';
import { fftRowsMatrix, ifftRowsMatrix, irfftMatrix, rfftMatrix } from './dft';

type Product = (x: tf.Tensor2D) => tf.Tensor2D;

/** The DFT products of one grid, kept across steps (the operator disposes `tensors`). */
export interface SpectralMats {
  /** Last (or only) axis: rfft x [.., N] -> [.., 2m] and irfft [.., 2m] -> [.., N]. */
  fwd: Product;
  inv: Product;
  /** 2D: the first axis, complex DFT at the kept rows [.., 2H] -> [.., 4m] and back. */
  rows?: { fwd: Product; inv: Product };
  tensors: tf.Tensor[];
}

/** x @ M for a [k, n] matrix given as values, its transpose kept for the gradient. */
function product(values: Float32Array, k: number, n: number, tensors: tf.Tensor[]): Product {
  const t = new Float32Array(k * n);
  for (let i = 0; i < k; i++) for (let j = 0; j < n; j++) t[j * k + i] = values[i * n + j]!;
  const m = tf.keep(tf.tensor2d(values, [k, n]));
  const mT = tf.keep(tf.tensor2d(t, [n, k]));
  tensors.push(m, mT);
  return fixedMatMul(m, mT);
}

/** Matrices for a grid; errors say which axis cannot hold `modes`. */
export function spectralMats(grid: readonly number[], modes: number): SpectralMats {
  const W = grid[grid.length - 1]!;
  if (modes > Math.floor(W / 2) + 1) throw new Error(`fno: modes ${modes} exceed the ${Math.floor(W / 2) + 1} frequencies of a grid axis of ${W} points; lower model modes`);
  const H = grid[0]!;
  if (grid.length === 2 && 2 * modes > H) throw new Error(`fno: 2 x modes (${2 * modes}) exceed the first grid axis (${H} points); lower model modes`);
  const tensors: tf.Tensor[] = [];
  const mats: SpectralMats = { fwd: product(rfftMatrix(W, modes), W, 2 * modes, tensors), inv: product(irfftMatrix(W, modes), 2 * modes, W, tensors), tensors };
  if (grid.length === 2) mats.rows = { fwd: product(fftRowsMatrix(H, modes), 2 * H, 4 * modes, tensors), inv: product(ifftRowsMatrix(H, modes), 4 * modes, 2 * H, tensors) };
  return mats;
}

/** 1D: h [B, N, C], weights1 [C, Cout, m, 2] -> [B, N, Cout]. */
export function spectralConv1d(h: tf.Tensor3D, w1: tf.Variable, mats: SpectralMats): tf.Tensor3D {
  const [B, N, C] = h.shape;
  const [, Co, m] = w1.shape as number[] as [number, number, number];
  const spec = mats.fwd(tf.reshape(tf.transpose(h, [0, 2, 1]), [B * C, N])); // [B*C, 2m]: (b, c) x (re/im, k)
  const y = spectralMix(tf.reshape(spec, [B, C, 1, 2, m]), [tf.reshape(w1, [C, Co, m, 1, 2])]); // [B, Co, 1, 2, m]
  return tf.transpose(tf.reshape(mats.inv(tf.reshape(y, [B * Co, 2 * m]) as tf.Tensor2D), [B, Co, N]), [0, 2, 1]);
}

/** 2D: h [B, H, W, C], weights1/weights2 [C, Cout, m, m, 2] (rows 0..m-1 / H-m..H-1) -> [B, H, W, Cout]. */
export function spectralConv2d(h: tf.Tensor4D, w1: tf.Variable, w2: tf.Variable, mats: SpectralMats): tf.Tensor4D {
  const [B, H, W, C] = h.shape;
  const [, Co, m] = w1.shape as number[] as [number, number, number];
  const R = 2 * m;
  const rows = mats.rows!;
  // along W (rfft), then along H at the kept rows (complex DFT)
  const a = mats.fwd(tf.reshape(tf.transpose(h, [0, 1, 3, 2]), [B * H * C, W])); // [B*H*C, 2m]
  const aT = tf.reshape(tf.transpose(tf.reshape(a, [B, H, C, 2, m]), [0, 2, 4, 3, 1]), [B * C * m, 2 * H]) as tf.Tensor2D;
  const spec = rows.fwd(aT); // [B*C*m, 2R]: (b, c, k2) x (re/im, k1)
  const y = spectralMix(tf.reshape(spec, [B, C, m, 2, R]), [w1, w2]); // [B, Co, m, 2, R]
  // back along H, then irfft along W
  const z = rows.inv(tf.reshape(y, [B * Co * m, 2 * R]) as tf.Tensor2D); // [B*Co*m, 2H]
  const zT = tf.reshape(tf.transpose(tf.reshape(z, [B, Co, m, 2, H]), [0, 4, 1, 3, 2]), [B * H * Co, 2 * m]) as tf.Tensor2D;
  return tf.transpose(tf.reshape(mats.inv(zT), [B, H, Co, W]), [0, 1, 3, 2]);
}
