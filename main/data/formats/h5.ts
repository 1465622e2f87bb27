// Shared h5wasm plumbing for HDF5 and MAT v7.3: one initialised module with HDF5's error stack
// turned into JS exceptions (instead of printed diagnostics), dtype mapping, bounds checks and
// reads in pieces (wasm32 memory cannot hold a >2 GiB slab; FNO files reach 1.5 GB per variable).
import { statSync } from 'node:fs';
import h5wasm from 'h5wasm/node';
import type { Dataset, File as H5File, Group } from 'h5wasm/node';
import type { DType, TypedArray } from '../ndarray';
import { allocTyped, checkedSize } from './bytes';
import { DataError } from './errors';
import { DTYPE_BYTES } from './types';

let ready: Promise<void> | null = null;
export function h5ready(): Promise<void> {
  if (!ready) {
    ready = h5wasm.ready.then((m) => {
      (m as unknown as { activate_throwing_error_handler(): void }).activate_throwing_error_handler();
    });
  }
  return ready;
}
export { h5wasm };

/** First line of an HDF5 error stack ("H5Fopen(): unable to open file"), for messages. */
export function h5message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const detail = lines.filter((l) => l.startsWith('#')).pop();
  return (detail ? detail.replace(/^#\d+:\s*\S+ line \d+ in /, '') : lines[0] ?? 'HDF5 error').slice(0, 300);
}

export function openH5(path: string): H5File {
  let f: H5File;
  try {
    f = new h5wasm.File(path, 'r');
  } catch (err) {
    throw new DataError(path, 'HDF5', `cannot open: ${h5message(err)}`);
  }
  if ((f as unknown as { file_id: bigint }).file_id < 0n) throw new DataError(path, 'HDF5', 'cannot open (not an HDF5 file or corrupt)');
  return f;
}

/** Our dtype for an HDF5 numeric dataset, or a reason it is unsupported. */
export function h5dtype(ds: Dataset): DType | { unsupported: string } {
  const m = ds.metadata as { type: number; size: number; signed: boolean };
  if (m.type === 1) {
    if (m.size === 4) return 'float32';
    if (m.size === 8) return 'float64';
    return { unsupported: `float of ${m.size} bytes` };
  }
  if (m.type === 0) {
    const t = `${m.signed ? 'int' : 'uint'}${m.size * 8}`;
    if (['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64'].includes(t)) return t as DType;
    return { unsupported: `integer type ${t}` };
  }
  const names: Record<number, string> = { 2: 'time', 3: 'string', 4: 'bitfield', 5: 'opaque', 6: 'compound', 7: 'reference', 8: 'enum', 9: 'vlen', 10: 'array' };
  return { unsupported: `${names[m.type] ?? `class ${m.type}`} datasets are not numeric arrays` };
}

/** Refuses to allocate for a dataset whose size the file cannot plausibly hold. */
export function checkDatasetSize(path: string, field: string, ds: Dataset, shape: readonly number[], dtype: DType): number {
  const n = checkedSize(path, field, shape);
  const bytes = n * DTYPE_BYTES[dtype];
  const fileSize = statSync(path).size;
  const filtered = (ds.filters ?? []).length > 0;
  const limit = filtered ? fileSize * 1032 + (1 << 20) : fileSize;
  // unallocated datasets (only a fill value) are legal HDF5, but not something to train on
  if (bytes > limit) throw new DataError(path, field, `dataset of shape [${shape.join(', ')}] needs ${bytes} bytes, more than the file (${fileSize} bytes) can hold${filtered ? ' compressed' : ''}`);
  return n;
}

/**
 * Every dataset below `group`. Plain HDF5: HDF5's own object visit (each object once, so hard-link
 * cycles cannot loop). MAT v7.3: only the top-level variables, skipping MATLAB's #refs#/#subsystem#
 * bookkeeping; groups (structs) are listed as such.
 */
export function listDatasets(group: Group, skipMatlabInternal: boolean, file = ''): Array<{ path: string; ds: Dataset | null; kind: string }> {
  const out: Array<{ path: string; ds: Dataset | null; kind: string }> = [];
  const MAX_ENTRIES = 100000;
  const add = (p: string) => {
    let e;
    try { e = group.get(p); } catch { out.push({ path: p, ds: null, kind: 'unreadable object' }); return; }
    if (e instanceof h5wasm.Dataset) out.push({ path: p, ds: e, kind: 'dataset' });
    else if (e instanceof h5wasm.Group) { if (skipMatlabInternal) out.push({ path: p, ds: null, kind: 'group' }); }
    else out.push({ path: p, ds: null, kind: 'link' });
  };
  if (skipMatlabInternal) {
    for (const key of group.keys()) if (!key.startsWith('#')) add(key);
    return out;
  }
  const paths = group.paths();
  if (paths.length > MAX_ENTRIES) throw new DataError(file, '/', `${paths.length} objects`, `at most ${MAX_ENTRIES}`);
  for (const p of paths) add(p);
  return out;
}

const PIECE_BYTES = 256 << 20;

/**
 * Reads `ds` (C-order shape `h5shape`) restricted to [start, start+count) along axis `axis`
 * (0 or last), in pieces along axis 0 of at most 256 MiB; returns C-order data of the sub-block.
 */
export function readBlock(path: string, field: string, ds: Dataset, h5shape: readonly number[], dtype: DType, axis: number, start: number, count: number): TypedArray {
  const sub = [...h5shape];
  sub[axis] = count;
  const n = checkedSize(path, field, sub);
  const out = allocTyped(dtype, n);
  if (n === 0) return out;
  const rows = sub[0];
  const rowElems = n / rows;
  const perPiece = Math.max(1, Math.floor(PIECE_BYTES / (rowElems * DTYPE_BYTES[dtype])));
  for (let r0 = 0; r0 < rows; r0 += perPiece) {
    const r1 = Math.min(rows, r0 + perPiece);
    const ranges: Array<[number, number]> = h5shape.map((d) => [0, d]);
    if (axis === 0) ranges[0] = [start + r0, start + r1];
    else { ranges[0] = [r0, r1]; ranges[axis] = [start, start + count]; }
    let piece: unknown;
    try {
      piece = ds.slice(ranges);
    } catch (err) {
      throw new DataError(path, field, `read failed: ${h5message(err)}`);
    }
    const p = piece as TypedArray;
    if (!p || typeof (p as { length?: number }).length !== 'number' || p.length !== (r1 - r0) * rowElems) {
      throw new DataError(path, field, `read returned ${(p as { length?: number })?.length ?? 'nothing'} elements, expected ${(r1 - r0) * rowElems}`);
    }
    if (p.constructor !== out.constructor) throw new DataError(path, field, `read returned ${p.constructor.name}, expected ${dtype}`);
    (out as Float64Array).set(p as Float64Array, r0 * rowElems);
  }
  return out;
}
