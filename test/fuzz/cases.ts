// Fuzz cases: a fixture of each format, mutated (bit flips, truncation, random header fields), then
// opened, listed and read in full and by rows. Every failure must be a DataError; anything else
// (TypeError, RangeError, wasm abort...) is a bug. Runs inside a worker so a hang can be cut off.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDataFile } from '../../main/data/formats/index';
import { DataError } from '../../main/data/formats/errors';
import { seededRandom } from '../../main/data/stages/split';
import { MODEL_FORMATS, readModelPristine, runModelCase } from './model-file-cases';
import { SWEEP_FORMATS, readSweepPristine, runSweepCase } from './sweep-cases';

const FIX = fileURLToPath(new URL('../fixtures/data/', import.meta.url));

export const FORMATS: Record<string, string[]> = {
  npy: ['npy/f8_le_C.npy', 'npy/f4_be_F.npy', 'npy/i8_le_F.npy'],
  npz: ['stored.npz', 'deflated.npz'],
  mat5: ['v5_compressed.mat', 'v5_plain.mat', 'v5_hand_be_z.mat', 'v5_hand_be_raw.mat'],
  mat73: ['v73.mat', 'ns_v73.mat'],
  hdf5: ['pdebench_darcy.h5', 'cyclic.h5'],
  airfoil: ['airfoil/NACA_Cylinder_X.npy', 'airfoil/NACA_Cylinder_Q.npy'],
};

const EXTREMES = [0, 1, 0xff, 0x7f, 0x80, 0xffff, 0x7fffffff, 0xffffffff, 0x80000000, 0x10000];

/** Mutates a copy of `src`; `desc` says what was done (printed for failures). */
export function mutate(src: Uint8Array, rnd: () => number): { bytes: Uint8Array; desc: string } {
  const kind = Math.floor(rnd() * 4);
  const int = (n: number) => Math.floor(rnd() * n);
  if (kind === 0) {
    const b = src.slice();
    const flips = 1 + int(8);
    const at: number[] = [];
    for (let i = 0; i < flips; i++) { const p = int(b.length); b[p] ^= 1 << int(8); at.push(p); }
    return { bytes: b, desc: `bit flips at ${at.join(',')}` };
  }
  if (kind === 1) {
    const len = rnd() < 0.5 ? int(Math.min(src.length, 1024)) : int(src.length);
    return { bytes: src.slice(0, len), desc: `truncated to ${len}` };
  }
  // a random header field: 1, 2, 4 or 8 bytes in the first 1 KiB (past MATLAB's 512-byte block too)
  const b = src.slice();
  const width = [1, 2, 4, 8][int(4)];
  const region = Math.min(b.length, rnd() < 0.3 ? 1200 : 600);
  const p = int(Math.max(1, region - width));
  const dv = new DataView(b.buffer);
  const v = rnd() < 0.6 ? EXTREMES[int(EXTREMES.length)] : int(0x100000000);
  for (let i = 0; i < width && p + i < b.length; i++) b[p + i] = width === 1 ? v & 0xff : (v >>> (8 * (i % 4))) & 0xff;
  if (width === 8 && rnd() < 0.5 && p + 8 <= b.length) dv.setUint32(p + 4, 0xffffffff, true);
  return { bytes: b, desc: `field of ${width} bytes at ${p} set to ${v}` };
}

export interface CaseResult { outcome: 'ok' | 'data-error'; desc: string }

/** Runs case `i` of `format` under `seed` in `tmp`; throws if something other than a DataError escapes. */
export async function runCase(format: string, seed: number, i: number, tmp: string): Promise<CaseResult> {
  if (format === '__hang-selftest') {
    // proves the harness's hang guard: case 1 never returns
    if (i === 1) for (;;) { /* spin */ }
    return { outcome: 'ok', desc: 'selftest' };
  }
  if (Object.hasOwn(MODEL_FORMATS, format)) return runModelCase(format, seed, i, tmp);
  if (Object.hasOwn(SWEEP_FORMATS, format)) return runSweepCase(format, seed, i, tmp);
  const rnd = seededRandom(seed * 1000003 + i);
  const fixtures = FORMATS[format];
  const which = fixtures[Math.floor(rnd() * fixtures.length)];
  const src = new Uint8Array(readFileSync(join(FIX, which)));
  const { bytes, desc } = mutate(src, rnd);
  let path: string;
  if (format === 'airfoil') {
    path = join(tmp, `airfoil-${i}`);
    mkdirSync(path, { recursive: true });
    const mutated = which.split('/')[1];
    for (const f of ['NACA_Cylinder_X.npy', 'NACA_Cylinder_Y.npy', 'NACA_Cylinder_Q.npy']) {
      if (f === mutated) writeFileSync(join(path, f), bytes);
      else symlinkSync(join(FIX, 'airfoil', f), join(path, f));
    }
  } else {
    // a new file (new inode) per case: HDF5 treats a rewritten file with the same inode as the
    // file it may still hold open after a failed read (h5wasm leaks the handle on some errors)
    path = join(tmp, `case-${i}.${which.split('.').pop()}`);
    writeFileSync(path, bytes);
  }
  const full = `${which}: ${desc}`;
  try {
    const f = await openDataFile(path);
    try {
      for (const v of f.variables()) {
        if (v.unsupported) continue;
        try {
          await f.read(v.name);
          if (v.shape.length > 0 && v.shape[0] > 0) await f.readRows(v.name, v.shape[0] - 1, 1);
        } catch (err) {
          if (!(err instanceof DataError)) throw err;
        }
      }
    } finally {
      f.close();
    }
    return { outcome: 'ok', desc: full };
  } catch (err) {
    if (err instanceof DataError) return { outcome: 'data-error', desc: full };
    const e = err as Error;
    const wrapped = new Error(`${format} case ${i} (${full}): ${e?.name ?? typeof err}: ${e?.message?.split('\n')[0] ?? String(err)}`);
    throw wrapped;
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}

/** Reads the unmutated fixtures of a format: after a fuzz run they must still load (no poisoned library state). */
export async function readPristine(format: string, tmp: string): Promise<void> {
  if (Object.hasOwn(MODEL_FORMATS, format)) return readModelPristine(format);
  if (Object.hasOwn(SWEEP_FORMATS, format)) return readSweepPristine(format, tmp);
  if (!FORMATS[format]) return;
  const paths = format === 'airfoil' ? [join(FIX, 'airfoil')] : FORMATS[format].map((f) => join(FIX, f));
  for (const p of paths) {
    const f = await openDataFile(p);
    try {
      for (const v of f.variables()) if (!v.unsupported) await f.read(v.name);
    } finally {
      f.close();
    }
  }
}
