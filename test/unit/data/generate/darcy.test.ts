import { test } from 'node:test';
import assert from 'node:assert/strict';
import { darcyCoefficient, solveGwf, darcySample } from '../../../../main/data/generate/darcy';
import { generateDataset } from '../../../../main/data/generate/index';

const P = { alpha: 2, tau: 3, high: 12, low: 3 };

/** ||f - A u|| / ||f|| with A assembled here from the formula (not by the solver's code). */
function fnoResidual(c: Float64Array, u: Float64Array, K: number): number {
  const h2 = (K - 1) ** 2;
  let rr = 0, ff = 0;
  const at = (i: number, j: number) => (i <= 0 || j <= 0 || i >= K - 1 || j >= K - 1 ? 0 : u[i * K + j]);
  for (let i = 1; i < K - 1; i++)
    for (let j = 1; j < K - 1; j++) {
      const cc = c[i * K + j];
      let Au = 0;
      for (const [di, dj] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const face = (cc + c[(i + di) * K + j + dj]) / 2;
        Au += face * (u[i * K + j] - at(i + di, j + dj));
      }
      const r = 1 - h2 * Au;
      rr += r * r;
      ff += 1;
    }
  return Math.sqrt(rr / ff);
}

test('darcy: float64 solution of the unclamped operator has relative residual <= 1e-10 (several grid sizes, uneven coarsening included)', () => {
  for (const K of [30, 85, 141]) {
    const a = darcyCoefficient(7, K, K, P);
    const sol = solveGwf(a, K, { tol: 1e-10 });
    const rel = fnoResidual(sol.nodalCoef, sol.nodal, K);
    assert.ok(rel <= 1e-10, `K=${K}: residual ${rel}`);
    assert.equal(sol.stats.solver, 'minres');
    assert.ok(sol.stats.iterations < 60, `K=${K}: ${sol.stats.iterations} iterations`);
    for (let j = 0; j < K; j++) assert.equal(sol.nodal[j], 0); // Dirichlet boundary
  }
});

test('darcy: MINRES and the banded LU agree with a dense direct solve of the unclamped (indefinite) operator', () => {
  const K = 12;
  const a = darcyCoefficient(3, 0, K, P);
  const sol = solveGwf(a, K, { tol: 1e-13 });
  const lu = solveGwf(a, K, { solver: 'banded-lu' });
  assert.ok(sol.stats.minCoef < 0, `the splined coefficient goes negative here (${sol.stats.minCoef}): the hard case`);
  const c = sol.nodalCoef;
  const m = K - 2, n = m * m;
  const A = new Float64Array(n * n), b = new Float64Array(n).fill(1);
  const id = (i: number, j: number) => (i - 1) * m + (j - 1);
  for (let i = 1; i < K - 1; i++)
    for (let j = 1; j < K - 1; j++)
      for (const [di, dj] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const face = ((c[i * K + j] + c[(i + di) * K + j + dj]) / 2) * (K - 1) ** 2;
        A[id(i, j) * n + id(i, j)] += face;
        const i2 = i + di, j2 = j + dj;
        if (i2 > 0 && j2 > 0 && i2 < K - 1 && j2 < K - 1) A[id(i, j) * n + id(i2, j2)] -= face;
      }
  // Gaussian elimination with partial pivoting
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(A[r * n + col]) > Math.abs(A[piv * n + col])) piv = r;
    for (let k = 0; k < n; k++) [A[col * n + k], A[piv * n + k]] = [A[piv * n + k], A[col * n + k]];
    [b[col], b[piv]] = [b[piv], b[col]];
    for (let r = col + 1; r < n; r++) {
      const f = A[r * n + col] / A[col * n + col];
      for (let k = col; k < n; k++) A[r * n + k] -= f * A[col * n + k];
      b[r] -= f * b[col];
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let v = b[r];
    for (let k = r + 1; k < n; k++) v -= A[r * n + k] * x[k];
    x[r] = v / A[r * n + r];
  }
  for (let i = 1; i < K - 1; i++)
    for (let j = 1; j < K - 1; j++) {
      assert.ok(Math.abs(x[id(i, j)] - sol.nodal[i * K + j]) <= 1e-10 * Math.abs(x[id(i, j)]) + 1e-14, 'minres');
      assert.ok(Math.abs(x[id(i, j)] - lu.nodal[i * K + j]) <= 1e-12 * Math.abs(x[id(i, j)]) + 1e-15, 'banded LU');
    }
});

test('darcy: mirroring the coefficient mirrors the solution', () => {
  for (const K of [41, 64]) {
    const a = darcyCoefficient(11, 1, K, P);
    const am = new Float64Array(K * K);
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) am[i * K + j] = a[i * K + (K - 1 - j)];
    const u = solveGwf(a, K, { tol: 1e-12 }).cells;
    const um = solveGwf(am, K, { tol: 1e-12 }).cells;
    let diff = 0, max = 0;
    for (let i = 0; i < K; i++)
      for (let j = 0; j < K; j++) {
        diff = Math.max(diff, Math.abs(u[i * K + j] - um[i * K + (K - 1 - j)]));
        max = Math.max(max, Math.abs(u[i * K + j]));
      }
    assert.ok(diff <= 1e-9 * max, `K=${K}: mirror mismatch ${diff / max}`);
    // and it is not trivially symmetric: the coefficient itself is not mirror-symmetric
    let asym = 0;
    for (let i = 0; i < K * K; i++) asym += Math.abs(a[i] - am[i]);
    assert.ok(asym > 0);
  }
});

test('darcy: 421 stride to 85 equals every 5th point of the 421 sample', () => {
  const fine = darcySample(5, 0, { ...P, resolution: 421, solveResolution: 421, tol: 1e-8, clamp: false });
  const coarse = darcySample(5, 0, { ...P, resolution: 85, solveResolution: 421, tol: 1e-8, clamp: false });
  for (const [i, j] of [[0, 0], [3, 7], [84, 84], [40, 17]]) {
    assert.equal(coarse.coeff[i * 85 + j], fine.coeff[i * 5 * 421 + j * 5]);
    assert.equal(coarse.sol[i * 85 + j], fine.sol[i * 5 * 421 + j * 5]);
  }
});

test('darcy: tiny preset through worker threads: shapes, dtypes, values, same bytes in-thread', async () => {
  let last = 0;
  const ds = await generateDataset('darcy', { preset: 'tiny', seed: 3 }, { onProgress: (p) => { last = p.done; } });
  const { coeff, sol } = ds.variables;
  assert.deepEqual(coeff.shape, [6, 29, 29]);
  assert.deepEqual(sol.shape, [6, 29, 29]);
  assert.equal(coeff.dtype, 'float32');
  assert.ok(coeff.data instanceof Float32Array && sol.data instanceof Float32Array);
  assert.equal(last, 6);
  for (const v of coeff.data) assert.ok(v === 3 || v === 12);
  let pos = 0;
  for (const v of sol.data) { assert.ok(Number.isFinite(v)); if (v > 0) pos++; }
  assert.ok(pos > sol.data.length / 2);
  assert.equal(ds.manifest.fineGridThenStride, false);
  const again = await generateDataset('darcy', { preset: 'tiny', seed: 3 }, {}, { workers: 0 });
  assert.deepEqual(Buffer.from(again.variables.sol.data.buffer), Buffer.from(sol.data.buffer));
  const other = await generateDataset('darcy', { preset: 'tiny', seed: 4, samples: 1 }, {}, { workers: 0 });
  assert.notDeepEqual(Buffer.from(other.variables.coeff.data.buffer), Buffer.from(coeff.data.buffer).subarray(0, 29 * 29 * 4));
});
