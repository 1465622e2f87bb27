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
  q0?: Int32Array; q1?: Int32Array;   // parents with absent ones mapped to 0 (weight 0), for branch-free loops
  tmp?: Float64Array;                 // (N+1) x (Nc+1) work array for separable transfers
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

/**
 * y = c - A x on the interior (c = null: y = A x). Only interior entries of y are written: callers
 * pass arrays whose boundary ring is zero and stays zero.
 */
export function applyStencil(L: Level, x: Float64Array, y: Float64Array, c: Float64Array | null = null): void {
  const { N, W, A, five } = L;
  for (let i = 1; i < N; i++) {
    let p = i * W + 1;
    for (let j = 1; j < N; j++, p++) {
      const b = p * 9;
      let acc = A[b + 1] * x[p - W] + A[b + 3] * x[p - 1] + A[b + 4] * x[p] + A[b + 5] * x[p + 1] + A[b + 7] * x[p + W];
      if (!five) acc += A[b] * x[p - W - 1] + A[b + 2] * x[p - W + 1] + A[b + 6] * x[p + W - 1] + A[b + 8] * x[p + W + 1];
      y[p] = c === null ? acc : c[p] - acc;
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

/**
 * Galerkin coarse operator P^T A P for the bilinear P given by the 1-D parent lists. P is a tensor
 * product, so for a fine coupling (i, j) -> (i + di, j + dj) the contributions factor into a row part
 * (pairs of coarse rows I, I2 with weight P(i, I) P(i + di, I2)) and a column part; both lists are
 * precomputed per (index, offset) without the boundary parents.
 */
function galerkin(fine: Level, Nc: number, par0: Int32Array, w0: Float64Array, par1: Int32Array, w1: Float64Array): Float64Array {
  const { N, W, A } = fine;
  const Wc = Nc + 1;
  const Ac = new Float64Array(9 * Wc * Wc);
  // pairs[(i * 3 + di + 1) * 4 + k]: coarse index I, offset I2 - I (+1), weight; count in cnt
  const M = (N + 1) * 3;
  const pI = new Int32Array(M * 4), pD = new Int32Array(M * 4), pW = new Float64Array(M * 4), cnt = new Int32Array(M);
  for (let i = 1; i < N; i++) {
    for (let di = -1; di <= 1; di++) {
      const i2 = i + di;
      const slot = i * 3 + di + 1;
      if (i2 <= 0 || i2 >= N) continue;
      let c = 0;
      const a = [par0[i], par1[i]], aw = [w0[i], w1[i]], b = [par0[i2], par1[i2]], bw = [w0[i2], w1[i2]];
      for (let x = 0; x < 2; x++) {
        if (a[x] < 0) continue;
        for (let y = 0; y < 2; y++) {
          if (b[y] < 0) continue;
          pI[slot * 4 + c] = a[x];
          pD[slot * 4 + c] = b[y] - a[x] + 1;
          pW[slot * 4 + c] = aw[x] * bw[y];
          c++;
        }
      }
      cnt[slot] = c;
    }
  }
  for (let i = 1; i < N; i++) {
    for (let j = 1; j < N; j++) {
      const p = i * W + j;
      for (let di = -1; di <= 1; di++) {
        const rs = i * 3 + di + 1, rc = cnt[rs];
        if (rc === 0) continue;
        for (let dj = -1; dj <= 1; dj++) {
          const a = A[p * 9 + (di + 1) * 3 + (dj + 1)];
          if (a === 0) continue;
          const cs = j * 3 + dj + 1, cc = cnt[cs];
          for (let x = 0; x < rc; x++) {
            const I = pI[rs * 4 + x], dI = pD[rs * 4 + x], wr = pW[rs * 4 + x] * a;
            const rowBase = I * Wc;
            for (let y = 0; y < cc; y++) {
              const J = pI[cs * 4 + y];
              Ac[(rowBase + J) * 9 + dI * 3 + pD[cs * 4 + y]] += wr * pW[cs * 4 + y];
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
      const q0 = par0.map((v) => Math.max(v, 0)), q1 = par1.map((v) => Math.max(v, 0));
      Object.assign(L, { par0, w0, par1, w1, q0, q1, tmp: new Float64Array((L.N + 1) * (Nc + 1)) });
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
    applyStencil(L, L.u, L.r, L.f);
    const { N, W, r } = L;
    const C = this.levels[l + 1];
    const Wc = C.W;
    // R = P^T applied separably: along j into tmp[i][J], then along i into the coarse grid. Absent
    // parents point at index 0 with weight 0 (the coarse boundary, never read as a right-hand side).
    const fc = C.f;
    fc.fill(0);
    const q0 = L.q0!, q1 = L.q1!, w0 = L.w0!, w1 = L.w1!;
    const tmp = L.tmp!;
    tmp.fill(0);
    for (let i = 1; i < N; i++) {
      const ro = i * W, to = i * Wc;
      for (let j = 1; j < N; j++) {
        const v = r[ro + j];
        tmp[to + q0[j]] += w0[j] * v;
        tmp[to + q1[j]] += w1[j] * v;
      }
    }
    for (let i = 1; i < N; i++) {
      const to = i * Wc, c0 = q0[i] * Wc, c1 = q1[i] * Wc, a0 = w0[i], a1 = w1[i];
      for (let J = 1; J < Wc - 1; J++) {
        const v = tmp[to + J];
        fc[c0 + J] += a0 * v;
        fc[c1 + J] += a1 * v;
      }
    }
    this.vcycle(l + 1);
    // P applied separably: along i into tmp[i][J], then along j (coarse boundary entries of e are 0)
    const e = C.u;
    const u = L.u;
    for (let i = 1; i < N; i++) {
      const to = i * Wc, c0 = q0[i] * Wc, c1 = q1[i] * Wc, a0 = w0[i], a1 = w1[i];
      for (let J = 0; J < Wc; J++) tmp[to + J] = a0 * e[c0 + J] + a1 * e[c1 + J];
    }
    for (let i = 1; i < N; i++) {
      const uo = i * W, to = i * Wc;
      for (let j = 1; j < N; j++) u[uo + j] += w0[j] * tmp[to + q0[j]] + w1[j] * tmp[to + q1[j]];
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
      if (rel <= tol) break; // the true residual is checked below; a restart follows if it is above tol
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
