// Export of a prepared dataset for the official PyTorch LiNO release and FNO's scripts.
// 'raw' layout: decoded physical fields in the published files' layout and names (Burgers a/u
// [n, s]; Darcy coeff/sol [n, s, s]; Navier-Stokes u [n, s, s, T_in + T_out]; airfoil X/Y/mach),
// rows ordered train, then validation, then test, so a script taking the first n_train samples
// trains on our training split. 'prepared' layout: the normalized channels-last arrays as they are
// fed to the model, plus the normalizer statistics.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PreparedDataset, SplitName } from './dataset';
import { writeFileAtomic } from '../util/atomic-file';
import { DataError } from './formats/errors';
import { writeMat73 } from './formats/mat73';
import { writeNpy } from './formats/npy';
import type { NdArray } from './ndarray';
import { ndarray } from './ndarray';
import { NORM_EPS } from './stages/normalize';

export type ExportFormat = 'npy' | 'mat73';
export type ExportLayout = 'raw' | 'prepared';

const SPLITS: SplitName[] = ['train', 'val', 'test'];

function matlabName(name: string): string {
  let n = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z]/.test(n)) n = `v${n}`;
  return n.slice(0, 63);
}

/** Channel `c` of channels-last arrays of every split, decoded, concatenated: [n, ...grid]. */
function channel(ds: PreparedDataset, which: 'x' | 'y', c: number, decodeIt: boolean): NdArray {
  const m = ds.manifest;
  const s = m.normalization[which];
  const k = m.normalization.applied && decodeIt ? s.std + NORM_EPS : 1;
  const b = m.normalization.applied && decodeIt ? s.mean : 0;
  const P = m.grid.reduce((p, q) => p * q, 1);
  const n = SPLITS.reduce((t, sp) => t + ds[sp][which].shape[0], 0);
  const out = new Float32Array(n * P);
  let row = 0;
  for (const sp of SPLITS) {
    const a = ds[sp][which];
    const C = a.shape[a.shape.length - 1];
    const d = a.data as Float32Array;
    for (let r = 0; r < a.shape[0]; r++, row++) for (let p = 0; p < P; p++) out[row * P + p] = d[(r * P + p) * C + c] * k + b;
  }
  return ndarray(out, [n, ...m.grid], 'float32');
}

/** Stacks per-channel fields [n, ...grid] along a new last axis: [n, ...grid, C]. */
function stackLast(parts: NdArray[]): NdArray {
  const [n, ...grid] = parts[0].shape;
  const P = grid.reduce((p, q) => p * q, 1);
  const C = parts.length;
  const out = new Float32Array(n * P * C);
  parts.forEach((a, c) => { const d = a.data as Float32Array; for (let i = 0; i < n * P; i++) out[i * C + c] = d[i]; });
  return ndarray(out, [n, ...grid, C], 'float32');
}

export function exportVariables(ds: PreparedDataset, layout: ExportLayout): Record<string, NdArray> {
  const m = ds.manifest;
  const vars: Record<string, NdArray> = {};
  if (layout === 'prepared') {
    for (const sp of SPLITS) { vars[`${sp}_x`] = ds[sp].x; vars[`${sp}_y`] = ds[sp].y; }
    for (const w of ['x', 'y'] as const) {
      vars[`${w}_mean`] = ndarray(Float64Array.of(m.normalization[w].mean), [1, 1], 'float64');
      vars[`${w}_std`] = ndarray(Float64Array.of(m.normalization[w].std), [1, 1], 'float64');
    }
  } else {
    const cIn = m.xChannels.length - m.coordChannels;
    const cOut = m.yChannels.length;
    if (m.benchmark === 'navier-stokes') {
      const frames = [...Array.from({ length: cIn }, (_, c) => channel(ds, 'x', c, true)), ...Array.from({ length: cOut }, (_, c) => channel(ds, 'y', c, true))];
      vars.u = stackLast(frames);
    } else {
      const names = m.benchmark === 'airfoil' ? ['X', 'Y'] : m.xChannels.slice(0, cIn);
      for (let c = 0; c < cIn; c++) vars[matlabName(names[c] ?? `x${c}`)] = channel(ds, 'x', c, true);
      vars[matlabName(m.yChannels[0])] = channel(ds, 'y', 0, true);
    }
  }
  for (const sp of SPLITS) vars[`${sp}_indices`] = ndarray(Int32Array.from(ds[sp].indices), [ds[sp].indices.length], 'int32');
  return vars;
}

/**
 * Writes the dataset to `outDir` (one .npy per variable, or one MAT v7.3 file); returns the files
 * written. `onProgress` is awaited after each variable: a job can yield there (and throw to stop).
 */
export async function exportDataset(ds: PreparedDataset, format: ExportFormat, outDir: string, layout: ExportLayout = 'raw', onProgress?: (done: number, total: number) => void | Promise<void>): Promise<string[]> {
  if (format !== 'npy' && format !== 'mat73') throw new DataError(outDir, 'format', `'${format}'`, "'npy' or 'mat73'");
  if (layout !== 'raw' && layout !== 'prepared') throw new DataError(outDir, 'layout', `'${layout}'`, "'raw' or 'prepared'");
  mkdirSync(outDir, { recursive: true });
  const vars = exportVariables(ds, layout);
  const files: string[] = [];
  const names = Object.keys(vars);
  if (format === 'npy') {
    for (const [i, name] of names.entries()) {
      const fname = ds.manifest.benchmark === 'airfoil' && layout === 'raw' && (name === 'X' || name === 'Y') ? `NACA_Cylinder_${name}.npy` : `${name}.npy`;
      writeNpy(join(outDir, fname), vars[name]);
      files.push(join(outDir, fname));
      await onProgress?.(i + 1, names.length);
    }
  } else {
    const path = join(outDir, `${ds.manifest.id}.mat`);
    await writeMat73(path, vars);
    files.push(path);
    await onProgress?.(names.length, names.length);
  }
  const manifestPath = join(outDir, `${ds.manifest.id}.manifest.json`);
  writeFileAtomic(manifestPath, JSON.stringify({ ...ds.manifest, export: { format, layout, variables: names, rowOrder: 'train, then val, then test' } }, null, 2) + '\n');
  files.push(manifestPath);
  return files;
}

/**
 * Writes a generator's output in the published files' layout: MAT v7.3 (or .npy per variable)
 * named after benchmark, preset, grid and seed; the airfoil set always as the three Geo-FNO .npy
 * files. The generator manifest goes beside it. Returns the files written.
 */
export async function writeGeneratedDataset(gen: { benchmark: string; variables: Record<string, NdArray>; manifest: Record<string, unknown> }, outDir: string, format: ExportFormat = 'mat73'): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const m = gen.manifest as { preset?: string; seed?: number; params?: { samples?: number; resolution?: number } };
  const stem = `${gen.benchmark}_${m.preset ?? 'custom'}_r${m.params?.resolution ?? 'x'}_N${m.params?.samples ?? 'x'}_seed${m.seed ?? 0}`;
  const files: string[] = [];
  if (gen.benchmark === 'airfoil' || format === 'npy') {
    for (const [name, arr] of Object.entries(gen.variables)) {
      const p = join(outDir, gen.benchmark === 'airfoil' ? `${name}.npy` : `${stem}_${name}.npy`);
      writeNpy(p, arr);
      files.push(p);
    }
  } else {
    const p = join(outDir, `${stem}.mat`);
    await writeMat73(p, gen.variables);
    files.push(p);
  }
  const mp = join(outDir, gen.benchmark === 'airfoil' ? 'generator-manifest.json' : `${stem}.manifest.json`);
  writeFileAtomic(mp, JSON.stringify(gen.manifest, null, 2) + '\n');
  files.push(mp);
  return files;
}
