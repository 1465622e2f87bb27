// Direct float64 solve of the Darcy 5-point system by banded Gaussian elimination with partial
// pivoting (LAPACK dgbsv's algorithm). FNO's solve_gwf.m solves with MATLAB's sparse `A\F`, which
// copes with the spline's overshooting (even non-positive) nodal coefficient; a direct solve does
// the same whatever the sign of the operator, where CG and multigrid need it positive definite.
//
// Unknowns are the interior nodes in row-major order, so the half-bandwidth is m = K - 2. Row r is
// stored over columns r - m .. r + 2m (pivoting can fill m more upper diagonals): (3m + 1) doubles
// per row, 14 MB at K = 85, 1.8 GB at K = 421 (so the large grids use MINRES, ./minres.ts). Work is
// about n m (m + fill) multiply-adds; `end` tracks each row's last non-zero so rows that were never
// swapped cost m, not 2m.

/** Solves the stencil system (9-slot stencil on the K x K nodal grid, ./multigrid.ts layout) for f; returns u nodal with a zero boundary. */
export function solveBandedStencil(A: Float64Array, f: Float64Array, K: number): Float64Array {
  const m = K - 2;
  const n = m * m;
  const w = 3 * m + 1;
  const band = new Float64Array(n * w);
  const b = new Float64Array(n);
  const end = new Int32Array(n);
  // a(r, c) lives at band[r * w + c - r + m]
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= m; j++) {
      const p = i * K + j, r = (i - 1) * m + (j - 1), o = r * w + m - r, s = p * 9;
      band[o + r] = A[s + 4];
      if (i > 1) band[o + r - m] = A[s + 1];
      if (j > 1) band[o + r - 1] = A[s + 3];
      if (j < m) band[o + r + 1] = A[s + 5];
      if (i < m) band[o + r + m] = A[s + 7];
      b[r] = f[p];
      end[r] = Math.min(n - 1, r + m);
    }
  }
  for (let i = 0; i < n; i++) {
    const last = Math.min(n - 1, i + m);
    let piv = i, best = Math.abs(band[i * w + m]);
    for (let r = i + 1; r <= last; r++) {
      const v = Math.abs(band[r * w + i - r + m]);
      if (v > best) { best = v; piv = r; }
    }
    if (best === 0) throw new Error(`darcy: the finite-difference matrix is singular (no pivot in column ${i} of ${n})`);
    if (piv !== i) {
      // both rows hold columns i .. i + 2m
      const hi = Math.min(n - 1, Math.max(end[i], end[piv]));
      const oi = i * w + m - i, op = piv * w + m - piv;
      for (let c = i; c <= hi; c++) { const t = band[oi + c]; band[oi + c] = band[op + c]; band[op + c] = t; }
      const t = b[i]; b[i] = b[piv]; b[piv] = t;
      const e = end[i]; end[i] = end[piv]; end[piv] = e;
    }
    const oi = i * w + m - i;
    const d = band[oi + i], ei = end[i];
    for (let r = i + 1; r <= last; r++) {
      const or = r * w + m - r;
      const l = band[or + i] / d;
      if (l === 0) continue;
      band[or + i] = 0;
      for (let c = i + 1; c <= ei; c++) band[or + c] -= l * band[oi + c];
      b[r] -= l * b[i];
      if (ei > end[r]) end[r] = ei;
    }
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const oi = i * w + m - i;
    let s = b[i];
    for (let c = i + 1; c <= end[i]; c++) s -= band[oi + c] * x[c];
    x[i] = s / band[oi + i];
  }
  const u = new Float64Array(K * K);
  for (let i = 1; i <= m; i++) for (let j = 1; j <= m; j++) u[i * K + j] = x[(i - 1) * m + (j - 1)];
  return u;
}
