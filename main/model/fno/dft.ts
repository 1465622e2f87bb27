// Truncated DFT matrices for FNO's spectral convolution: the lowest modes of a real signal and the
// inverse back to the grid are each one matMul with a precomputed [N, 2*modes] (or transposed)
// cos/sin matrix: kernel-lean on every backend, no tf.spectral (whose gradients differ by backend).
// Entries are computed in float64 from (k*n mod N), so large grids keep exact angles.

const TWO_PI = 2 * Math.PI;
const angle = (k: number, n: number, N: number) => (TWO_PI * ((k * n) % N)) / N;

/** rfft's first m coefficients: x [.., N] @ F [N, 2m] = [Re (m) | Im (m)]. */
export function rfftMatrix(N: number, m: number): Float32Array {
  const F = new Float32Array(N * 2 * m);
  for (let n = 0; n < N; n++) {
    for (let k = 0; k < m; k++) {
      const a = angle(k, n, N);
      F[n * 2 * m + k] = Math.cos(a);
      F[n * 2 * m + m + k] = -Math.sin(a);
    }
  }
  return F;
}

/**
 * irfft(n=N) of a spectrum whose only nonzero coefficients are the first m: [Re | Im] [.., 2m] @
 * I [2m, N]. Like irfft, the imaginary parts at k = 0 and k = N/2 do not contribute (their sine
 * rows are zero) and the other modes count twice (their conjugates).
 */
export function irfftMatrix(N: number, m: number): Float32Array {
  const I = new Float32Array(2 * m * N);
  for (let k = 0; k < m; k++) {
    const c = (k === 0 || 2 * k === N ? 1 : 2) / N;
    for (let n = 0; n < N; n++) {
      const a = angle(k, n, N);
      I[k * N + n] = c * Math.cos(a);
      I[(m + k) * N + n] = -c * Math.sin(a);
    }
  }
  return I;
}

/** Rows of the full (complex) axis kept by the 2D spectral convolution: 0..m-1, then H-m..H-1. */
export function keptRows(H: number, m: number): number[] {
  return [...Array.from({ length: m }, (_, k) => k), ...Array.from({ length: m }, (_, k) => H - m + k)];
}

/** Complex DFT over an axis at the kept rows: [Re (H) | Im (H)] [.., 2H] @ M [2H, 2R] = [Re (R) | Im (R)]. */
export function fftRowsMatrix(H: number, m: number): Float32Array {
  const rows = keptRows(H, m);
  const R = rows.length;
  const M = new Float32Array(2 * H * 2 * R);
  for (let h = 0; h < H; h++) {
    rows.forEach((k, j) => {
      const a = angle(k, h, H);
      const c = Math.cos(a);
      const s = Math.sin(a);
      M[h * 2 * R + j] = c; // Re <- Re cos
      M[h * 2 * R + R + j] = -s; // Im <- -Re sin
      M[(H + h) * 2 * R + j] = s; // Re <- Im sin
      M[(H + h) * 2 * R + R + j] = c; // Im <- Im cos
    });
  }
  return M;
}

/** Inverse complex DFT (1/H) from the kept rows back to the axis: [Re (R) | Im (R)] @ M [2R, 2H]. */
export function ifftRowsMatrix(H: number, m: number): Float32Array {
  const rows = keptRows(H, m);
  const R = rows.length;
  const M = new Float32Array(2 * R * 2 * H);
  rows.forEach((k, j) => {
    for (let h = 0; h < H; h++) {
      const a = angle(k, h, H);
      const c = Math.cos(a) / H;
      const s = Math.sin(a) / H;
      M[j * 2 * H + h] = c;
      M[j * 2 * H + H + h] = s;
      M[(R + j) * 2 * H + h] = -s;
      M[(R + j) * 2 * H + H + h] = c;
    }
  });
  return M;
}
