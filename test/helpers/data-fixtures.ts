// Shared by the data tests: fixture paths, expected values written by tools/fixtures/make_data_fixtures.py,
// and whether Debian's python3 with numpy/h5py/scipy is there for cross-checks.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { NdArray } from '../../main/data/ndarray';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIX = join(ROOT, 'test', 'fixtures', 'data');
export const fix = (name: string) => join(FIX, name);

export interface Expected { shape: number[]; dtype: string; values: number[] }
export const expected: Record<string, Expected & Record<string, unknown>> = JSON.parse(readFileSync(fix('expected.json'), 'utf8'));

export function assertMatches(arr: NdArray, exp: Expected, what: string): void {
  assert.deepEqual([...arr.shape], exp.shape, `${what}: shape`);
  assert.equal(arr.dtype, exp.dtype, `${what}: dtype`);
  const got = Array.from(arr.data as ArrayLike<number | bigint>, (v) => Number(v));
  assert.equal(got.length, exp.values.length, `${what}: length`);
  for (let i = 0; i < got.length; i++) if (got[i] !== exp.values[i]) assert.fail(`${what}: element ${i} is ${got[i]}, expected ${exp.values[i]}`);
}

const PY = '/usr/bin/python3';
let pyOk: boolean | null = null;
/** Debian python3 with numpy, h5py and scipy (tools only; tests skip with a reason without it). */
export function havePython(): boolean {
  if (pyOk === null) {
    const r = spawnSync(PY, ['-c', 'import numpy, h5py, scipy'], { encoding: 'utf8' });
    pyOk = r.status === 0;
  }
  return pyOk;
}
export const NO_PYTHON = `${PY} with numpy, h5py and scipy not available`;

export function runFixtureTool(args: string[]): unknown {
  const r = spawnSync(PY, [join(ROOT, 'tools/fixtures/make_data_fixtures.py'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fixture tool failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
