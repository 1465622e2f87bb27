// Not-a-knot cubic spline interpolation on a uniform grid (MATLAB's `spline`, which `interp2(...,'spline')`
// applies along each axis of gridded data), including MATLAB's extrapolation by the end pieces.
// FNO's Darcy solver moves the cell-centred coefficient onto the nodal grid and the nodal solution back
// with it. It is linear in the data, so one plan (sizes and target positions) serves every line.

export class UniformSpline {
  readonly n: number;
  private readonly h: number;
  private readonly x0: number;
  private readonly seg: Int32Array;
  private readonly t: Float64Array;
  // Thomas factorization of tridiag(1, 4, 1) of size n - 4 (unknowns M_2..M_{n-3}).
  private readonly cp: Float64Array;
  private readonly denom: Float64Array;
  private readonly M: Float64Array;
  private readonly r: Float64Array;

  /** Source nodes x0 + i h, i = 0..n-1 (n >= 4); targets anywhere (outside: extrapolated). */
  constructor(n: number, x0: number, h: number, targets: ArrayLike<number>) {
    if (n < 4) throw new Error(`spline: needs at least 4 source points, got ${n}`);
    this.n = n;
    this.h = h;
    this.x0 = x0;
    this.seg = new Int32Array(targets.length);
    this.t = new Float64Array(targets.length);
    for (let q = 0; q < targets.length; q++) {
      const u = (targets[q] - x0) / h;
      const i = Math.min(n - 2, Math.max(0, Math.floor(u)));
      this.seg[q] = i;
      this.t[q] = targets[q] - (x0 + i * h);
    }
    const m = n - 4;
    this.cp = new Float64Array(Math.max(m, 1));
    this.denom = new Float64Array(Math.max(m, 1));
    for (let k = 0; k < m; k++) {
      const d = 4 - (k > 0 ? this.cp[k - 1] : 0);
      this.denom[k] = d;
      this.cp[k] = 1 / d;
    }
    this.M = new Float64Array(n);
    this.r = new Float64Array(n);
  }

  /** Interpolates y[off + i * stride] (i < n) into out[outOff + q * outStride]. */
  apply(y: ArrayLike<number>, off: number, stride: number, out: Float64Array, outOff: number, outStride: number): void {
    const { n, h, M, r, cp, denom } = this;
    const c = 6 / (h * h);
    for (let i = 1; i < n - 1; i++) r[i] = c * (y[off + (i - 1) * stride] - 2 * y[off + i * stride] + y[off + (i + 1) * stride]);
    // Not-a-knot: M0 = 2 M1 - M2 turns row 1 into 6 M1 = r1 (likewise at the other end).
    M[1] = r[1] / 6;
    M[n - 2] = r[n - 2] / 6;
    const m = n - 4;
    if (m > 0) {
      // rows i = 2..n-3 : M_{i-1} + 4 M_i + M_{i+1} = r_i, with M_1 and M_{n-2} known
      for (let k = 0; k < m; k++) {
        let rhs = r[k + 2];
        if (k === 0) rhs -= M[1];
        if (k === m - 1) rhs -= M[n - 2];
        M[k + 2] = (rhs - (k > 0 ? M[k + 1] : 0)) / denom[k];
      }
      for (let k = m - 2; k >= 0; k--) M[k + 2] -= cp[k] * M[k + 3];
    }
    M[0] = 2 * M[1] - M[2];
    M[n - 1] = 2 * M[n - 2] - M[n - 3];
    const { seg, t } = this;
    for (let q = 0; q < seg.length; q++) {
      const i = seg[q];
      const a = t[q];
      const b = h - a;
      const yi = y[off + i * stride];
      const yj = y[off + (i + 1) * stride];
      out[outOff + q * outStride] =
        (M[i] * b * b * b + M[i + 1] * a * a * a) / (6 * h) + (yi / h - (M[i] * h) / 6) * b + (yj / h - (M[i + 1] * h) / 6) * a;
    }
  }
}

/** Tensor-product spline of an n x n row-major array onto targets x targets (same plan on both axes). */
export function spline2(src: Float64Array, plan: UniformSpline): Float64Array {
  const n = plan.n;
  const m = plan['seg'].length;
  const tmp = new Float64Array(n * m); // rows interpolated: tmp[i][q]
  for (let i = 0; i < n; i++) plan.apply(src, i * n, 1, tmp, i * m, 1);
  const out = new Float64Array(m * m);
  for (let q = 0; q < m; q++) plan.apply(tmp, q, m, out, q, m);
  return out;
}
