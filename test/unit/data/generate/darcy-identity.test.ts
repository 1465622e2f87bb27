// The same Darcy sample across grids: generated at its native grid the arrays are what they always
// were (pinned hashes), and with the native grid named (resolution transfer) the coefficient at
// another grid is that sample's random field refined or truncated, so it matches the native one
// except next to interfaces. Without it (a fresh draw at the new grid) it would not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { darcyCoefficient } from '../../../../main/data/generate/darcy';
import { generateDataset } from '../../../../main/data/generate/index';
import { resolveParams } from '../../../../main/data/generate/presets';

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
  assert.throws(() => resolveParams('burgers', { preset: 'tiny', nativeGrid: 29 }), /option "nativeGrid" = 29: expected only for darcy/);
  assert.throws(() => resolveParams('darcy', { preset: 'tiny', nativeGrid: 2.5 }), /option "nativeGrid" = 2.5: expected an integer in 8\.\.421/);
});
