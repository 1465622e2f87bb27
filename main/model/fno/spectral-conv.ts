// FNO's spectral convolution (SpectralConv1d/2d of the original), channels-last: truncated DFT as
// matMuls with precomputed cos/sin matrices (./dft.ts), a complex multiply per kept mode (one
// batched real product with the block [[Wr, Wi], [-Wi, Wr]]), and the inverse as matMuls.
// Complex weights are variables with a trailing real/imag axis of 2 (torch.view_as_real).
import * as tf from '../../ops/tf';
import { bmm } from '../../ops/batch-matmul';
import { fftRowsMatrix, ifftRowsMatrix, irfftMatrix, rfftMatrix } from './dft';

/** The DFT matrices of one grid, kept across steps (the operator disposes them). */
export interface SpectralMats {
  /** Last (or only) axis: rfft [N, 2m] and irfft [2m, N]. */
  fwd: tf.Tensor2D;
  inv: tf.Tensor2D;
  /** 2D: the first axis, complex DFT at the kept rows [2H, 4m] and back [4m, 2H]. */
  rows?: { fwd: tf.Tensor2D; inv: tf.Tensor2D };
}

/** Matrices for a grid; errors say which axis cannot hold `modes`. */
export function spectralMats(grid: readonly number[], modes: number): SpectralMats {
  const W = grid[grid.length - 1]!;
  if (modes > Math.floor(W / 2) + 1) throw new Error(`fno: modes ${modes} exceed the ${Math.floor(W / 2) + 1} frequencies of a grid axis of ${W} points; lower model modes`);
  const mats: SpectralMats = { fwd: tf.keep(tf.tensor2d(rfftMatrix(W, modes), [W, 2 * modes])), inv: tf.keep(tf.tensor2d(irfftMatrix(W, modes), [2 * modes, W])) };
  if (grid.length === 2) {
    const H = grid[0]!;
    if (2 * modes > H) throw new Error(`fno: 2 x modes (${2 * modes}) exceed the first grid axis (${H} points); lower model modes`);
    mats.rows = { fwd: tf.keep(tf.tensor2d(fftRowsMatrix(H, modes), [2 * H, 4 * modes])), inv: tf.keep(tf.tensor2d(ifftRowsMatrix(H, modes), [4 * modes, 2 * H])) };
  }
  return mats;
}

/** [K, Cin, Cout, 2] weights (modes flattened first) -> the real block [K, 2Cin, 2Cout]. */
function complexBlock(w: tf.Tensor): tf.Tensor3D {
  const [K, ci, co] = w.shape as [number, number, number, number];
  const re = tf.reshape(tf.slice(w, [0, 0, 0, 0], [K, ci, co, 1]), [K, ci, co]);
  const im = tf.reshape(tf.slice(w, [0, 0, 0, 1], [K, ci, co, 1]), [K, ci, co]);
  return tf.concat([tf.concat([re, im], 2), tf.concat([tf.neg(im), re], 2)], 1) as tf.Tensor3D;
}

/** 1D: h [B, N, C], weights1 [C, Cout, m, 2] -> [B, N, Cout]. */
export function spectralConv1d(h: tf.Tensor3D, w1: tf.Variable, mats: SpectralMats): tf.Tensor3D {
  const [B, N, C] = h.shape;
  const [, Co, m] = w1.shape as number[] as [number, number, number];
  const spec = tf.matMul(tf.reshape(tf.transpose(h, [0, 2, 1]), [B * C, N]), mats.fwd); // [B*C, 2m]
  const x = tf.reshape(tf.transpose(tf.reshape(spec, [B, C, 2, m]), [3, 0, 2, 1]), [m, B, 2 * C]);
  const y = bmm(x as tf.Tensor3D, complexBlock(tf.transpose(w1, [2, 0, 1, 3]))); // [m, B, 2Co]
  const back = tf.reshape(tf.transpose(tf.reshape(y, [m, B, 2, Co]), [1, 3, 2, 0]), [B * Co, 2 * m]);
  return tf.transpose(tf.reshape(tf.matMul(back, mats.inv), [B, Co, N]), [0, 2, 1]);
}

/** 2D: h [B, H, W, C], weights1/weights2 [C, Cout, m, m, 2] (rows 0..m-1 / H-m..H-1) -> [B, H, W, Cout]. */
export function spectralConv2d(h: tf.Tensor4D, w1: tf.Variable, w2: tf.Variable, mats: SpectralMats): tf.Tensor4D {
  const [B, H, W, C] = h.shape;
  const [, Co, m] = w1.shape as number[] as [number, number, number];
  const R = 2 * m;
  const rows = mats.rows!;
  // along W (rfft), then along H at the kept rows (complex DFT)
  const a = tf.matMul(tf.reshape(tf.transpose(h, [0, 1, 3, 2]), [B * H * C, W]), mats.fwd); // [B*H*C, 2m]
  const aT = tf.reshape(tf.transpose(tf.reshape(a, [B, H, C, 2, m]), [0, 2, 4, 3, 1]), [B * C * m, 2 * H]);
  const spec = tf.matMul(aT, rows.fwd); // [B*C*m, 2R]: (b, c, k2) x (re/im, k1)
  const x = tf.reshape(tf.transpose(tf.reshape(spec, [B, C, m, 2, R]), [4, 2, 0, 3, 1]), [R * m, B, 2 * C]);
  const w = tf.reshape(tf.transpose(tf.concat([w1, w2], 2), [2, 3, 0, 1, 4]), [R * m, C, Co, 2]);
  const y = bmm(x as tf.Tensor3D, complexBlock(w)); // [R*m, B, 2Co]
  // back along H, then irfft along W
  const yT = tf.reshape(tf.transpose(tf.reshape(y, [R, m, B, 2, Co]), [2, 4, 1, 3, 0]), [B * Co * m, 2 * R]);
  const z = tf.matMul(yT, rows.inv); // [B*Co*m, 2H]
  const zT = tf.reshape(tf.transpose(tf.reshape(z, [B, Co, m, 2, H]), [0, 4, 1, 3, 2]), [B * H * Co, 2 * m]);
  return tf.transpose(tf.reshape(tf.matMul(zT, mats.inv), [B, H, Co, W]), [0, 1, 3, 2]);
}
