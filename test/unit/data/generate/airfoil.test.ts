import { test } from 'node:test';
import assert from 'node:assert/strict';
import { airfoilFromDisplacements, airfoilSample, airfoilSurface, panelSolve } from '../../../../main/data/generate/airfoil';
import { PRESETS, type AirfoilParams } from '../../../../main/data/generate/presets';
import { generateDataset } from '../../../../main/data/generate/index';

const P = PRESETS.airfoil.tiny as AirfoilParams;
const zero = [0, 0, 0, 0];

test('airfoil: panel method on NACA-0012 at zero incidence: no circulation, peak speed 1.19 V_inf near x = 0.1', () => {
  const s = airfoilSurface(80, zero, zero);
  const ps = panelSolve(s.x, s.y);
  assert.ok(Math.abs(ps.gamma) < 1e-10);
  let vmax = 0, at = 0;
  ps.vt.forEach((v, i) => { if (Math.abs(v) > vmax) { vmax = Math.abs(v); at = i; } });
  // Abbott & von Doenhoff tabulate v/V = 1.189 at x = 0.10 for NACA 0012 at zero lift
  assert.ok(Math.abs(vmax - 1.189) < 0.01, `peak ${vmax}`);
  assert.ok(s.x[at] > 0.05 && s.x[at] < 0.2);
  // flow tangency holds at a point just off the surface (normal velocity small vs. speed)
  const [u, v] = ps.velocity(0.5, 1.0);
  assert.ok(Math.abs(Math.hypot(u, v) - 1) < 0.05);
});

test('airfoil: undeformed field is symmetric, free stream Mach far away, subsonic everywhere', () => {
  const r = airfoilFromDisplacements(zero, zero, P);
  const plane = P.ni * P.nj;
  const M = r.Q.subarray(4 * plane);
  for (let i = 0; i < P.ni; i++)
    for (let j = 0; j < P.nj; j++) {
      assert.ok(Math.abs(M[i * P.nj + j] - M[(P.ni - 1 - i) * P.nj + j]) < 1e-6);
      assert.ok(Math.abs(r.Y[i * P.nj + j] + r.Y[(P.ni - 1 - i) * P.nj + j]) < 1e-6);
    }
  for (const i of [0, 60, 110, 160, 220]) assert.ok(Math.abs(M[i * P.nj + P.nj - 1] - P.machInf) < 2e-3, `far field ${M[i * P.nj + P.nj - 1]}`);
  assert.ok(r.maxMach > 0.6 && r.maxMach < 0.65, `max Mach ${r.maxMach}`);
  assert.equal(M[110 * P.nj], 0); // leading-edge stagnation node
});

test('airfoil: random shapes give unfolded C-grids whose wake cut matches on both sides', () => {
  for (let k = 0; k < 6; k++) {
    const g = airfoilSample(1, k, P);
    const idx = (i: number, j: number) => i * P.nj + j;
    for (let i = 0; i < P.ni - 1; i++)
      for (let j = 0; j < P.nj - 1; j++) {
        const ax = g.X[idx(i + 1, j)] - g.X[idx(i, j)], ay = g.Y[idx(i + 1, j)] - g.Y[idx(i, j)];
        const bx = g.X[idx(i, j + 1)] - g.X[idx(i, j)], by = g.Y[idx(i, j + 1)] - g.Y[idx(i, j)];
        assert.ok(ax * by - ay * bx > 0, `sample ${k}: folded cell at ${i},${j}`);
      }
    for (let i = 0; i <= P.wake; i++) {
      assert.equal(g.X[idx(i, 0)], g.X[idx(P.ni - 1 - i, 0)]);
      assert.equal(g.Y[idx(i, 0)], g.Y[idx(P.ni - 1 - i, 0)]);
    }
    // Karman-Tsien is only valid while subsonic; strongly cambered shapes can exceed M = 1 near the leading
    // edge (the manifest reports the largest Mach). The pressure floor (M ~ 5.7) must never be reached.
    assert.ok(g.maxMach > 0.55 && g.maxMach < 1.6, `sample ${k}: max Mach ${g.maxMach}`);
  }
});

test('airfoil: tiny preset in the Geo-FNO layout, deterministic, marked as a stand-in', async () => {
  const ds = await generateDataset('airfoil', { preset: 'tiny', seed: 8 });
  assert.deepEqual(ds.variables.NACA_Cylinder_X.shape, [3, 221, 51]);
  assert.deepEqual(ds.variables.NACA_Cylinder_Y.shape, [3, 221, 51]);
  assert.deepEqual(ds.variables.NACA_Cylinder_Q.shape, [3, 5, 221, 51]);
  for (const v of Object.values(ds.variables)) {
    assert.equal(v.dtype, 'float32');
    for (const x of v.data as Float32Array) assert.ok(Number.isFinite(x));
  }
  assert.equal(ds.manifest.standIn, true);
  assert.match(String(ds.manifest.notes), /STAND-IN/);
  const again = await generateDataset('airfoil', { preset: 'tiny', seed: 8 }, {}, { workers: 0 });
  assert.deepEqual(Buffer.from(again.variables.NACA_Cylinder_Q.data.buffer), Buffer.from(ds.variables.NACA_Cylinder_Q.data.buffer));
});
