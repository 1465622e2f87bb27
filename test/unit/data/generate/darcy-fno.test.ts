// The Darcy solution is FNO's solve_gwf.m, unclamped. The fixture was made by a
// line-by-line NumPy/SciPy port of solve_gwf.m with a sparse direct solve (tools/reference/solve_gwf_ref.py;
// GNU Octave itself was not run), on coefficient fields it stores; the workbench's solver must match
// it to 1e-6, with every solver it has, and the explicit clamp option must match the clamped port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { solveGwf, type DarcySolver } from '../../../../main/data/generate/darcy';
import { generateDataset } from '../../../../main/data/generate/index';
import { fix } from '../../../helpers/data-fixtures';

interface Sample { K: number; coef: string; solution: string; solutionClamped: string; minNodalCoef: number }
const doc = JSON.parse(readFileSync(fix('darcy_solve_gwf.json'), 'utf8')) as { samples: Sample[] };
const f32 = (b64: string) => { const b = Buffer.from(b64, 'base64'); return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4); };
const coefOf = (s: Sample) => Float64Array.from(s.coef, (ch) => (ch === '1' ? 12 : 3));

/** max |u - ref| / max |ref| */
function relMax(u: ArrayLike<number>, ref: ArrayLike<number>): number {
  let d = 0, m = 0;
  for (let i = 0; i < ref.length; i++) { d = Math.max(d, Math.abs(u[i]! - ref[i]!)); m = Math.max(m, Math.abs(ref[i]!)); }
  return d / m;
}

test('darcy: solve_gwf.m fixture (unclamped, direct A\\F) reproduced to 1e-6 by MINRES and by the banded LU', () => {
  assert.ok(doc.samples.length >= 4);
  for (const [k, s] of doc.samples.entries()) {
    assert.ok(s.minNodalCoef < 3, 'the fixture covers the spline overshoot');
    const ref = f32(s.solution);
    for (const solver of ['minres', 'banded-lu'] as DarcySolver[]) {
      const sol = solveGwf(coefOf(s), s.K, { solver });
      const e = relMax(sol.cells, ref);
      assert.ok(e <= 1e-6, `sample ${k} (K=${s.K}) ${solver}: ${e.toExponential(2)} from solve_gwf.m`);
      assert.ok(Math.abs(sol.stats.minCoef - s.minNodalCoef) <= 1e-9 * Math.abs(s.minNodalCoef), 'same splined coefficient');
    }
    // the default is the unclamped solve
    assert.ok(relMax(solveGwf(coefOf(s), s.K).cells, ref) <= 1e-6);
  }
});

test('darcy: the clamp is an explicit option: it matches the clamped port and differs from FNO by far more than 1e-6', () => {
  for (const s of doc.samples) {
    const clamped = solveGwf(coefOf(s), s.K, { clamp: true, tol: 1e-12 });
    assert.equal(clamped.stats.solver, 'pcg');
    assert.ok(relMax(clamped.cells, f32(s.solutionClamped)) <= 1e-6);
    assert.ok(relMax(clamped.cells, f32(s.solution)) > 1e-4, 'the clamp changes the data');
  }
});

test('darcy: the manifest records the clamp setting; unclamped by default', async () => {
  const a = await generateDataset('darcy', { preset: 'tiny', samples: 1 }, {}, { workers: 0 });
  const b = await generateDataset('darcy', { preset: 'tiny', samples: 1, clamp: true }, {}, { workers: 0 });
  assert.equal((a.manifest.params as { clamp: boolean }).clamp, false);
  assert.equal((b.manifest.params as { clamp: boolean }).clamp, true);
  assert.match(String(a.manifest.notes), /unclamped/);
  assert.notDeepEqual(Buffer.from(a.variables.sol.data.buffer), Buffer.from(b.variables.sol.data.buffer));
  await assert.rejects(generateDataset('burgers', { preset: 'tiny', clamp: true }), /option "clamp" = true: expected only for darcy/);
});
