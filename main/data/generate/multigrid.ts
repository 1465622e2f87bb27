// Float64 solver for the Darcy system: conjugate gradients preconditioned by one symmetric
// multigrid V(1,1)-cycle per iteration.
//
// Why this design: the grid sizes the benchmarks use (421, 241, 85, ...) are not 2^k + 1, so plain
// geometric coarsening does not fit. Coarse grids keep every even fine node (plus the far boundary),
// prolongation is (bi)linear in index space and the coarse operators are Galerkin products R A P with
// R = P^T; an uneven last coarse interval is then handled automatically. With 5-point fine stencils and
// bilinear P every coarse operator is a 9-point stencil, stored per node. Symmetric Gauss-Seidel
// (forward before, backward after the coarse correction) keeps the preconditioner symmetric positive
// definite, as CG needs. The coarsest grid (at most 8 x 8 unknowns) is solved by dense Cholesky.
//
// Arrays are nodal with the Dirichlet boundary ring included: (N+1) x (N+1), row-major, boundary zero.

export interface Level {
  N: number;           // intervals per axis; nodes 0..N, unknowns 1..N-1
  W: number;           // row stride = N + 1
  A: Float64Array;     // 9 stencil coefficients per node: A[p * 9 + (di + 1) * 3 + (dj + 1)]
  off: Int32Array;     // neighbour offsets in the padded array, per stencil slot
  // 1-D interpolation from the next coarser level: fine node i -> up to two coarse parents
  par0?: Int32Array; w0?: Float64Array; par1?: Int32Array; w1?: Float64Array;
  u: Float64Array; f: Float64Array; r: Float64Array;
  five: boolean;       // 5-point stencil (finest level): corner slots are zero and skipped
  invDiag: Float64Array;
  chol?: Float64Array; // coarsest level: dense Cholesky factor (row-major, lower)
}

function offsets(W: number): Int32Array {
  const o = new Int32Array(9);
  for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) o[(di + 1) * 3 + (dj + 1)] = di * W + dj;
  return o;
}

function newLevel(N: number, A: Float64Array, five: boolean): Level {
  const W = N + 1;
  const invDiag = new Float64Array(W * W);
  for (let p = 0; p < W * W; p++) if (A[p * 9 + 4] !== 0) invDiag[p] = 1 / A[p * 9 + 4];
  return { N, W, A, off: offsets(W), u: new Float64Array(W * W), f: new Float64Array(W * W), r: new Float64Array(W * W), five, invDiag };
}

/**
 * The FNO (solve_gwf) operator for a nodal coefficient c on the K x K grid, h = 1/(K-1):
 * 5-point stencil with face coefficients (c_P + c_nb)/2, scaled by (K-1)^2. Couplings to boundary nodes
 * are dropped (u = 0 there).
 */
export function darcyStencil(c: Float64Array, K: number): Float64Array {
  const N = K - 1;
  const W = K;
  const A = new Float64Array(9 * W * W);
  const s2 = N * N;
  for (let i = 1; i < N; i++) {
    for (let j = 1; j < N; j++) {
      const p = i * W + j;
      const cp = c[p];
      const n = (cp + c[p - W]) / 2, so = (cp + c[p + W]) / 2, we = (cp + c[p - 1]) / 2, ea = (cp + c[p + 1]) / 2;
      const b = p * 9;
      A[b + 4] = (n + so + we + ea) * s2;
      if (i > 1) A[b + 1] = -n * s2;
      if (i < N - 1) A[b + 7] = -so * s2;
      if (j > 1) A[b + 3] = -we * s2;
      if (j < N - 1) A[b + 5] = -ea * s2;
    }
  }
  return A;
}

/** y = A x on the interior (boundary entries of y set to 0). */
export function applyStencil(L: Level, x: Float64Array, y: Float64Array): void {
  const { N, W, A, five } = L;
  y.fill(0);
  for (let i = 1; i < N; i++) {
    let p = i * W + 1;
    for (let j = 1; j < N; j++, p++) {
      const b = p * 9;
      let acc = A[b + 1] * x[p - W] + A[b + 3] * x[p - 1] + A[b + 4] * x[p] + A[b + 5] * x[p + 1] + A[b + 7] * x[p + W];
      if (!five) acc += A[b] * x[p - W - 1] + A[b + 2] * x[p - W + 1] + A[b + 6] * x[p + W - 1] + A[b + 8] * x[p + W + 1];
      y[p] = acc;
    }
  }
}

function parents(N: number): { Nc: number; par0: Int32Array; w0: Float64Array; par1: Int32Array; w1: Float64Array } {
  const Nc = Math.ceil(N / 2);
  const par0 = new Int32Array(N + 1).fill(-1), par1 = new Int32Array(N + 1).fill(-1);
  const w0 = new Float64Array(N + 1), w1 = new Float64Array(N + 1);
  const interior = (I: number) => I > 0 && I < Nc;
  for (let i = 1; i < N; i++) {
    const list: [number, number][] = [];
    if (i % 2 === 0) list.push([i / 2, 1]);
    else list.push([(i - 1) / 2, 0.5], [(i + 1) / 2, 0.5]);
    const keep = list.filter(([I]) => interior(I));
    if (keep[0]) { par0[i] = keep[0][0]; w0[i] = keep[0][1]; }
    if (keep[1]) { par1[i] = keep[1][0]; w1[i] = keep[1][1]; }
  }
  return { Nc, par0, w0, par1, w1 };
}

/** Galerkin coarse operator P^T A P for the bilinear P given by the 1-D parent lists. */
function galerkin(fine: Level, Nc: number, par0: Int32Array, w0: Float64Array, par1: Int32Array, w1: Float64Array): Float64Array {
  const { N, W, A } = fine;
  const Wc = Nc + 1;
  const Ac = new Float64Array(9 * Wc * Wc);
  // parents as [index, weight] pairs per fine index, -1 = none (boundary entries stay -1)
  const P = new Int32Array(2 * (N + 1)).fill(-1);
  const Pw = new Float64Array(2 * (N + 1));
  for (let i = 1; i < N; i++) { P[2 * i] = par0[i]; Pw[2 * i] = w0[i]; P[2 * i + 1] = par1[i]; Pw[2 * i + 1] = w1[i]; }
  for (let i = 1; i < N; i++) {
    for (let j = 1; j < N; j++) {
      const p = i * W + j;
      for (let di = -1; di <= 1; di++) {
        const i2 = i + di;
        for (let dj = -1; dj <= 1; dj++) {
          const a = A[p * 9 + (di + 1) * 3 + (dj + 1)];
          if (a === 0) continue;
          const j2 = j + dj;
          for (let x = 0; x < 2; x++) {
            const I = P[2 * i + x];
            if (I < 0) continue;
            const wI = Pw[2 * i + x] * a;
            for (let x2 = 0; x2 < 2; x2++) {
              const I2 = P[2 * i2 + x2];
              if (I2 < 0) continue;
              const wII = wI * Pw[2 * i2 + x2];
              const rowSlot = (I2 - I + 1) * 3 + 1;
              for (let y = 0; y < 2; y++) {
                const J = P[2 * j + y];
                if (J < 0) continue;
                const wIIJ = wII * Pw[2 * j + y];
                const base = (I * Wc + J) * 9 + rowSlot - J;
                for (let y2 = 0; y2 < 2; y2++) {
                  const J2 = P[2 * j2 + y2];
                  if (J2 < 0) continue;
                  Ac[base + J2] += wIIJ * Pw[2 * j2 + y2];
                }
              }
            }
          }
        }
      }
    }
  }
  return Ac;
}

function denseCholesky(L: Level): void {
  const { N, W, A } = L;
  const m = N - 1;
  const n = m * m;
  const M = new Float64Array(n * n);
  const idx = (i: number, j: number) => (i - 1) * m + (j - 1);
  for (let i = 1; i < N; i++)
    for (let j = 1; j < N; j++)
      for (let di = -1; di <= 1; di++)
        for (let dj = -1; dj <= 1; dj++) {
          const a = A[(i * W + j) * 9 + (di + 1) * 3 + (dj + 1)];
          const ii = i + di, jj = j + dj;
          if (a !== 0 && ii > 0 && ii < N && jj > 0 && jj < N) M[idx(i, j) * n + idx(ii, jj)] = a;
        }
  for (let c = 0; c < n; c++) {
    let d = M[c * n + c];
    for (let k = 0; k < c; k++) d -= M[c * n + k] ** 2;
    if (!(d > 0)) throw new Error('multigrid: coarsest operator is not positive definite');
    d = Math.sqrt(d);
    M[c * n + c] = d;
    for (let r = c + 1; r < n; r++) {
      let v = M[r * n + c];
      for (let k = 0; k < c; k++) v -= M[r * n + k] * M[c * n + k];
      M[r * n + c] = v / d;
    }
  }
  L.chol = M;
}

function coarseSolve(L: Level): void {
  const { N, W, f, u } = L;
  const M = L.chol!;
  const m = N - 1;
  const n = m * m;
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let v = f[(Math.floor(r / m) + 1) * W + (r % m) + 1];
    for (let k = 0; k < r; k++) v -= M[r * n + k] * y[k];
    y[r] = v / M[r * n + r];
  }
  for (let r = n - 1; r >= 0; r--) {
    let v = y[r];
    for (let k = r + 1; k < n; k++) v -= M[k * n + r] * y[k];
    y[r] = v / M[r * n + r];
  }
  u.fill(0);
  for (let r = 0; r < n; r++) u[(Math.floor(r / m) + 1) * W + (r % m) + 1] = y[r];
}

export class MultigridPreconditioner {
  readonly levels: Level[] = [];

  /** `A` is a 9-slot stencil on the (N+1)^2 nodal grid (see darcyStencil). */
  constructor(N: number, A: Float64Array) {
    let L = newLevel(N, A, true);
    this.levels.push(L);
    while (L.N > 8) {
      const { Nc, par0, w0, par1, w1 } = parents(L.N);
      Object.assign(L, { par0, w0, par1, w1 });
      const Ac = galerkin(L, Nc, par0, w0, par1, w1);
      L = newLevel(Nc, Ac, false);
      this.levels.push(L);
    }
    denseCholesky(L);
  }

  private smooth(L: Level, forward: boolean): void {
    const { N, W, A, u, f, invDiag, five } = L;
    const i0 = forward ? 1 : N - 1, di = forward ? 1 : -1;
    for (let k = 1; k < N; k++) {
      const i = i0 + (k - 1) * di;
      let p = forward ? i * W + 1 : i * W + N - 1;
      for (let m = 1; m < N; m++, p += di) {
        const b = p * 9;
        let s = f[p] - A[b + 1] * u[p - W] - A[b + 3] * u[p - 1] - A[b + 5] * u[p + 1] - A[b + 7] * u[p + W];
        if (!five) s -= A[b] * u[p - W - 1] + A[b + 2] * u[p - W + 1] + A[b + 6] * u[p + W - 1] + A[b + 8] * u[p + W + 1];
        u[p] = s * invDiag[p];
      }
    }
  }

  private vcycle(l: number): void {
    const L = this.levels[l];
    if (l === this.levels.length - 1) {
      coarseSolve(L);
      return;
    }
    L.u.fill(0);
    this.smooth(L, true);
    // residual and restriction
    applyStencil(L, L.u, L.r);
    const { N, W, f, r } = L;
    for (let i = 1; i < N; i++) for (let j = 1; j < N; j++) { const p = i * W + j; r[p] = f[p] - r[p]; }
    const C = this.levels[l + 1];
    const Wc = C.W;
    const fc = C.f;
    fc.fill(0);
    const par0 = L.par0!, par1 = L.par1!, w0 = L.w0!, w1 = L.w1!;
    for (let i = 1; i < N; i++) {
      const a0 = par0[i], a1 = par1[i], aw0 = w0[i], aw1 = w1[i];
      const r0 = a0 * Wc, r1 = a1 * Wc;
      for (let j = 1; j < N; j++) {
        const v = r[i * W + j];
        const b0 = par0[j], b1 = par1[j], bw0 = w0[j] * v, bw1 = w1[j] * v;
        if (a0 >= 0) {
          if (b0 >= 0) fc[r0 + b0] += aw0 * bw0;
          if (b1 >= 0) fc[r0 + b1] += aw0 * bw1;
        }
        if (a1 >= 0) {
          if (b0 >= 0) fc[r1 + b0] += aw1 * bw0;
          if (b1 >= 0) fc[r1 + b1] += aw1 * bw1;
        }
      }
    }
    this.vcycle(l + 1);
    const e = C.u;
    const u = L.u;
    // Coarse boundary entries of e are zero, so missing parents (-1 -> weight 0) can be read safely
    // through index 0 of their row; weights of absent parents are 0.
    for (let i = 1; i < N; i++) {
      const a0 = par0[i], a1 = par1[i], aw0 = w0[i], aw1 = w1[i];
      const r0 = Math.max(a0, 0) * Wc, r1 = Math.max(a1, 0) * Wc;
      for (let j = 1; j < N; j++) {
        const b0 = Math.max(par0[j], 0), b1 = Math.max(par1[j], 0), bw0 = w0[j], bw1 = w1[j];
        u[i * W + j] += aw0 * (bw0 * e[r0 + b0] + bw1 * e[r0 + b1]) + aw1 * (bw0 * e[r1 + b0] + bw1 * e[r1 + b1]);
      }
    }
    this.smooth(L, false);
  }

  /** z = M^{-1} r (both nodal, boundary zero). */
  apply(r: Float64Array, z: Float64Array): void {
    const L = this.levels[0];
    L.f.set(r);
    this.vcycle(0);
    z.set(L.u);
  }
}

export interface SolveStats {
  iterations: number;
  relResidual: number;
  levels: number;
}

function dot(L: Level, a: Float64Array, b: Float64Array): number {
  const { N, W } = L;
  let s = 0;
  for (let i = 1; i < N; i++) for (let j = 1; j < N; j++) { const p = i * W + j; s += a[p] * b[p]; }
  return s;
}

/** Solves A u = f to ||f - A u|| <= tol ||f|| (true residual checked at the end). */
export function solvePcg(N: number, A: Float64Array, f: Float64Array, tol = 1e-8, maxIter = 200): { u: Float64Array; stats: SolveStats } {
  const mg = new MultigridPreconditioner(N, A);
  const L0 = mg.levels[0];
  const W = N + 1;
  const n = W * W;
  const u = new Float64Array(n), r = new Float64Array(n), z = new Float64Array(n), p = new Float64Array(n), q = new Float64Array(n);
  const fb = new Float64Array(n);
  for (let i = 1; i < N; i++) for (let j = 1; j < N; j++) fb[i * W + j] = f[i * W + j];
  const bnorm = Math.sqrt(dot(L0, fb, fb));
  if (bnorm === 0) return { u, stats: { iterations: 0, relResidual: 0, levels: mg.levels.length } };
  let it = 0;
  let rel = 1;
  for (let restart = 0; restart < 3; restart++) {
    applyStencil(L0, u, q);
    for (let k = 0; k < n; k++) r[k] = fb[k] - q[k];
    rel = Math.sqrt(dot(L0, r, r)) / bnorm;
    if (rel <= tol) break;
    mg.apply(r, z);
    p.set(z);
    let rz = dot(L0, r, z);
    while (it < maxIter) {
      it++;
      applyStencil(L0, p, q);
      const alpha = rz / dot(L0, p, q);
      for (let k = 0; k < n; k++) { u[k] += alpha * p[k]; r[k] -= alpha * q[k]; }
      rel = Math.sqrt(dot(L0, r, r)) / bnorm;
      if (rel <= tol * 0.5) break;
      mg.apply(r, z);
      const rz2 = dot(L0, r, z);
      const beta = rz2 / rz;
      rz = rz2;
      for (let k = 0; k < n; k++) p[k] = z[k] + beta * p[k];
    }
  }
  // report the true residual
  applyStencil(L0, u, q);
  for (let k = 0; k < n; k++) r[k] = fb[k] - q[k];
  rel = Math.sqrt(dot(L0, r, r)) / bnorm;
  if (!(rel <= tol)) throw new Error(`multigrid-PCG: relative residual ${rel.toExponential(2)} above ${tol} after ${it} iterations`);
  return { u, stats: { iterations: it, relResidual: rel, levels: mg.levels.length } };
}
