// The same Darcy, Burgers and Navier-Stokes sample across grids: generated at its native grid the arrays are what
// they always were (pinned hashes), and with the native grid named (resolution transfer) the random
// field at another grid is that sample's field refined or truncated, so it matches the native one
// (Darcy: except next to interfaces). Without it (a fresh draw at the new grid) it would not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { darcyCoefficient } from '../../../../main/data/generate/darcy';
import { burgersSample } from '../../../../main/data/generate/burgers';
import { nsGrf } from '../../../../main/data/generate/grf';
import { sampleRng } from '../../../../main/data/generate/rng';
import { generateDataset } from '../../../../main/data/generate/index';
import { resolveParams, type BurgersParams } from '../../../../main/data/generate/presets';

const P = { alpha: 2, tau: 3, high: 12, low: 3 };

/** Share of the coarse grid's cells equal to the fine grid's every ((S-1)/(s-1))-th cell. */
function agreement(coarse: Float64Array, s: number, fine: Float64Array, S: number): number {
  const r = (S - 1) / (s - 1);
  let n = 0;
  for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) if (coarse[i * s + j] === fine[i * r * S + j * r]) n++;
  return n / (s * s);
}

const hash = (a: Float32Array) => createHash('sha256').update(Buffer.from(a.buffer, a.byteOffset, a.byteLength)).digest('hex').slice(0, 16);

test('darcy at its native grid: the same bytes as before the native-grid option existed', async () => {
  const ds = await generateDataset('darcy', { preset: 'tiny', seed: 3, samples: 3 }, {}, { workers: 0 });
  // recorded from the generator before the option was added
  assert.equal(hash(ds.variables.coeff!.data as Float32Array), 'b44b2606ed6d8258');
  assert.equal(hash(ds.variables.sol!.data as Float32Array), '37aeae0430945a3a');
  // naming the native grid itself changes nothing, and is not recorded
  const same = await generateDataset('darcy', { preset: 'tiny', seed: 3, samples: 3, nativeGrid: 29 }, {}, { workers: 0 });
  assert.equal(hash(same.variables.coeff!.data as Float32Array), 'b44b2606ed6d8258');
  assert.equal((same.manifest.params as { nativeGrid?: number }).nativeGrid, undefined);
});

test('darcy at 57 with native grid 29: the native coefficient refined (>= 95% of the shared points agree); a fresh draw would not', () => {
  let fresh = 0;
  for (let k = 0; k < 8; k++) {
    const native = darcyCoefficient(0, k, 29, P);
    const refined = darcyCoefficient(0, k, 57, { ...P, nativeGrid: 29 });
    const share = agreement(native, 29, refined, 57);
    assert.ok(share >= 0.95, `sample ${k}: ${(100 * share).toFixed(1)}% of the shared points agree`);
    fresh += agreement(native, 29, darcyCoefficient(0, k, 57, P), 57) / 8;
  }
  // the control: a field drawn afresh at 57 agrees only by chance
  assert.ok(fresh < 0.8, `fresh draws agree at ${(100 * fresh).toFixed(1)}% of the points`);
});

test('darcy at 15 with native grid 29: the native field truncated to the lowest modes; at 113 the modes up to 57 are those of 57', () => {
  for (let k = 0; k < 4; k++) {
    const native = darcyCoefficient(0, k, 29, P);
    assert.ok(agreement(darcyCoefficient(0, k, 15, { ...P, nativeGrid: 29 }), 15, native, 29) >= 0.9, `sample ${k} at 15`);
    // the modes beyond the native grid are drawn ring by ring, so 113 refines the field 57 has
    const at57 = darcyCoefficient(0, k, 57, { ...P, nativeGrid: 29 });
    assert.ok(agreement(at57, 57, darcyCoefficient(0, k, 113, { ...P, nativeGrid: 29 }), 113) >= 0.97, `sample ${k} at 113`);
  }
});

test('nativeGrid: recorded only where it changes the draw; refused for another benchmark or out of range, naming the field', () => {
  assert.equal((resolveParams('darcy', { preset: 'tiny', resolution: 57, nativeGrid: 29 }) as { nativeGrid?: number }).nativeGrid, 29);
  assert.equal((resolveParams('darcy', { preset: 'tiny', resolution: 29, nativeGrid: 29 }) as { nativeGrid?: number }).nativeGrid, undefined);
  assert.throws(() => resolveParams('airfoil', { preset: 'tiny', nativeGrid: 32 }), /option "nativeGrid" = 32: expected only for darcy, burgers and navier-stokes/);
  assert.throws(() => resolveParams('navier-stokes', { preset: 'tiny', nativeGrid: 48 }), /option "nativeGrid" = 48: expected a power of two in 8\.\.1024/);
  assert.throws(() => resolveParams('burgers', { preset: 'tiny', nativeGrid: 100 }), /option "nativeGrid" = 100: expected a power of two in 16\.\.65536/);
  assert.throws(() => resolveParams('darcy', { preset: 'tiny', nativeGrid: 2.5 }), /option "nativeGrid" = 2.5: expected an integer in 8\.\.421/);
});

test('burgers at its native grid: the same bytes as before; above its solve grid with nativeGrid: the same initial condition refined', async () => {
  const ds = await generateDataset('burgers', { preset: 'tiny', seed: 3, samples: 2 }, {}, { workers: 0 });
  // recorded from the generator before the option was added
  assert.equal(hash(ds.variables.a!.data as Float32Array), '97e6de7632577f2b');
  assert.equal(hash(ds.variables.u!.data as Float32Array), 'feb0ef38a841a55a');
  // the tiny set is stored at 64 from a 256-point solve with 128 modes; at 512 the solve grid (and the modes) grow
  const rel = (coarse: Float32Array, fine: Float32Array) => {
    const r = fine.length / coarse.length;
    let num = 0, den = 0;
    for (let j = 0; j < coarse.length; j++) { num += (coarse[j]! - fine[j * r]!) ** 2; den += coarse[j]! ** 2; }
    return Math.sqrt(num / den);
  };
  let fresh = 0;
  for (let k = 0; k < 3; k++) {
    const native = burgersSample(0, k, resolveParams('burgers', { preset: 'tiny' }) as BurgersParams);
    const refined = burgersSample(0, k, resolveParams('burgers', { preset: 'tiny', resolution: 512, nativeGrid: 256 }) as BurgersParams);
    assert.ok(rel(native.a, refined.a) < 1e-2, `sample ${k}: initial condition differs by ${rel(native.a, refined.a)}`);
    assert.ok(rel(native.u, refined.u) < 1e-3, `sample ${k}: solution differs by ${rel(native.u, refined.u)}`);
    fresh += rel(native.a, burgersSample(0, k, resolveParams('burgers', { preset: 'tiny', resolution: 512 }) as BurgersParams).a) / 3;
  }
  assert.ok(fresh > 0.3, `fresh draws differ by only ${fresh}`);
});

test('navier-stokes at its native grid: the same bytes as before; with nativeGrid the initial vorticity is the native one refined or truncated', async () => {
  const ds = await generateDataset('navier-stokes', { preset: 'tiny', seed: 3, samples: 1, frames: 2, tIn: 1, tOut: 1 }, {}, { workers: 0 });
  // recorded from the generator before the option was added
  assert.equal(hash(ds.variables.a!.data as Float32Array), '493442ee3269fbda');
  assert.equal(hash(ds.variables.u!.data as Float32Array), '6e0db1ac4d8a8e48');
  // periodic grids x = j / s: every point of the coarse grid is one of the fine grid's
  const rel = (coarse: Float64Array, s: number, fine: Float64Array, S: number) => {
    const r = S / s;
    let num = 0, den = 0;
    for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) { num += (coarse[i * s + j]! - fine[i * r * S + j * r]!) ** 2; den += coarse[i * s + j]! ** 2; }
    return Math.sqrt(num / den);
  };
  const at = (k: number, s: number, native?: number) =>
    nsGrf(sampleRng(0, 'navier-stokes', k), s, 2.5, 7, undefined, native ? { s0: native, extra: sampleRng(0, 'navier-stokes-refine', k) } : undefined);
  for (let k = 0; k < 3; k++) {
    const native = at(k, 32);
    const fine = at(k, 64, 32);
    assert.ok(rel(native, 32, fine, 64) < 0.05, `sample ${k} at 64: ${rel(native, 32, fine, 64)}`);
    assert.ok(rel(fine, 64, at(k, 128, 32), 128) < 0.02, `sample ${k} at 128 vs 64: the wavenumbers up to 64's are 64's`);
    assert.ok(rel(at(k, 16, 32), 16, native, 32) < 0.1, `sample ${k} at 16`);
    assert.ok(rel(native, 32, at(k, 64), 64) > 0.5, `sample ${k}: a fresh draw at 64 is another field`);
  }
});
