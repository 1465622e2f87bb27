// Renderer state, one kind a folder: renderer/src/stores/ holds the zustand stores, queries/ the API
// reads and one-off calls (through useQuery or requireApi, no store of their own), logic/ the pure
// helpers (no React, no zustand, no API), and no other folder holds any of them. Views draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SRC = new URL('../../../renderer/src/', import.meta.url).pathname;
const code = (f: string) => readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
const list = (d: string) => readdirSync(join(SRC, d)).filter((n) => /\.tsx?$/.test(n)).map((n) => join(SRC, d, n));

test('stores/ are zustand stores, queries/ call the API without a store, logic/ is pure', () => {
  const bad: string[] = [];
  for (const f of list('stores')) if (!/from 'zustand'/.test(code(f))) bad.push(`${f}: a store without zustand belongs in queries/ or logic/`);
  for (const f of list('queries')) {
    const c = code(f);
    if (/from 'zustand'/.test(c)) bad.push(`${f}: a zustand store belongs in stores/`);
    if (!/useQuery|requireApi|\.call\(/.test(c)) bad.push(`${f}: no API call: a pure helper belongs in logic/`);
  }
  for (const f of list('logic')) if (/from 'zustand'|from 'react'|requireApi|useApp|\.call\(/.test(code(f))) bad.push(`${f}: logic/ is pure (no React, zustand or API)`);
  assert.deepEqual(bad, []);
  assert.deepEqual(readdirSync(SRC).filter((n) => n === 'store'), [], 'the old mixed store/ folder is gone');
});
