// MATLAB .mat v7.3 reader and writer. A v7.3 file is HDF5 behind a 512-byte MATLAB header; MATLAB
// is column-major, so every array appears in HDF5 with its axes reversed: [N, s, s] in MATLAB is
// [s, s, N] in HDF5. Reading reverses the axes back (row-major result with MATLAB's shape);
// writing does the opposite and adds the header, so scipy, h5py and MATLAB see a MATLAB file.
import { closeSync, openSync, readSync, rmSync, fsyncSync, writeSync } from 'node:fs';
import type { Dataset, File as H5File } from 'h5wasm/node';
import type { DType, NdArray, TypedArray } from '../ndarray';
import { ndarray } from '../ndarray';
import { allocTyped, cToFortran, checkedSize, fortranToC, HDF5_SIGNATURE, matlabHeaderVersion, startsWith } from './bytes';
import { commitTemp, tempSibling } from '../../util/atomic-file';
import { DataError } from './errors';
import { checkDatasetSize, guard, h5dtype, h5lib, isWasmAbort, listDatasets, openH5, readBlock, type H5 } from './h5';
import { DTYPE_BYTES, type DataFile, type DataFormat, type VariableInfo } from './types';

interface Entry { info: VariableInfo; ds: Dataset | null; h5shape: number[] }

function attrString(ds: Dataset, name: string): string | undefined {
  try {
    const a = ds.attrs[name];
    if (!a) return undefined;
    const v = a.value;
    if (typeof v === 'string') return v;
    if (v instanceof Uint8Array) return new TextDecoder().decode(v);
    return String(v);
  } catch (err) {
    if (isWasmAbort(err)) throw err;
    return undefined;
  }
}

export class Mat73File implements DataFile {
  readonly format = 'mat73' as const;
  readonly path: string;
  private f: H5File;
  private h5: H5;
  private entries = new Map<string, Entry>();

  private constructor(path: string, f: H5File, h5: H5) {
    this.path = path;
    this.f = f;
    this.h5 = h5;
  }

  static async open(path: string): Promise<Mat73File> {
    const h5 = await h5lib();
    const f = openH5(h5, path);
    const m = new Mat73File(path, f, h5);
    try { guard(path, 'HDF5', 'listing failed', () => m.scan()); } catch (err) { m.close(); throw err; }
    return m;
  }

  private scan(): void {
    for (const { path: name, ds, kind } of listDatasets(this.h5, this.f, true, this.path)) {
      if (!ds) {
        this.entries.set(name, { ds: null, h5shape: [], info: { name, shape: [], dtype: 'float64', bytes: 0, unsupported: kind === 'group' ? 'MATLAB struct/object (HDF5 group), not a numeric array' : `unreadable ${kind}` } });
        continue;
      }
      const cls = attrString(ds, 'MATLAB_class');
      const h5shape = (ds.shape ?? []).map(Number);
      const shape = [...h5shape].reverse();
      const dt = h5dtype(ds);
      let unsupported: string | undefined;
      if (cls && ['char', 'cell', 'struct', 'function_handle', 'string'].includes(cls)) unsupported = `MATLAB class '${cls}' is not a numeric array`;
      else if (typeof dt !== 'string') unsupported = dt.unsupported;
      else if (ds.attrs['MATLAB_empty']) unsupported = 'empty MATLAB array';
      const dtype: DType = typeof dt === 'string' ? dt : 'float64';
      const n = checkedSize(this.path, name, shape);
      this.entries.set(name, {
        ds, h5shape,
        info: { name, shape, dtype, bytes: n * DTYPE_BYTES[dtype], note: `${cls ? `MATLAB class ${cls}` : 'no MATLAB_class'}${ds.filters.length ? ', compressed' : ''}`, ...(unsupported ? { unsupported } : {}) },
      });
    }
  }

  variables(): VariableInfo[] {
    return [...this.entries.values()].map((e) => ({ ...e.info, shape: [...e.info.shape] }));
  }

  private entry(name: string): Entry & { ds: Dataset } {
    const e = this.entries.get(name);
    if (!e) throw new DataError(this.path, name, 'no such variable', [...this.entries.keys()].map((k) => `'${k}'`).join(', ') || 'a numeric variable');
    if (e.info.unsupported || !e.ds) throw new DataError(this.path, name, e.info.unsupported ?? 'unreadable', 'a real numeric array');
    guard(this.path, name, 'cannot inspect', () => checkDatasetSize(this.path, name, e.ds!, e.info.shape, e.info.dtype));
    return e as Entry & { ds: Dataset };
  }

  async read(name: string): Promise<NdArray> {
    const e = this.entry(name);
    if (e.h5shape.length === 0) return ndarray(readBlock(this.path, name, e.ds, [1], e.info.dtype, 0, 0, 1), [], e.info.dtype);
    // HDF5 axis 0 is MATLAB's last axis: each piece along it is transposed straight into place
    const shape = e.info.shape;
    const last = shape[shape.length - 1];
    const rest = shape.slice(0, -1).reduce((a, b) => a * b, 1);
    const out = allocTyped(e.info.dtype, rest * last);
    const per = Math.max(1, Math.floor(PIECE_BYTES / Math.max(1, rest * DTYPE_BYTES[e.info.dtype])));
    for (let r0 = 0; r0 < last; r0 += per) {
      const r1 = Math.min(last, r0 + per);
      const piece = readBlock(this.path, name, e.ds, e.h5shape, e.info.dtype, 0, r0, r1 - r0);
      fortranToC(piece, [...shape.slice(0, -1), r1 - r0], { out, lastSize: last, lastOffset: r0 });
    }
    return ndarray(out, shape, e.info.dtype);
  }

  async readRows(name: string, start: number, count: number): Promise<NdArray> {
    const e = this.entry(name);
    const shape = e.info.shape;
    if (shape.length === 0) throw new DataError(this.path, name, 'a scalar has no rows');
    const N = shape[0];
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count) || start < 0 || count < 0 || start + count > N) {
      throw new DataError(this.path, name, `rows ${start}..${start + count} out of range`, `0..${N}`);
    }
    // MATLAB's first axis is HDF5's last: a hyperslab over it, then reverse the axes
    const data = readBlock(this.path, name, e.ds, e.h5shape, e.info.dtype, e.h5shape.length - 1, start, count);
    const outShape = [count, ...shape.slice(1)];
    return ndarray(fortranToC(data, outShape), outShape, e.info.dtype);
  }

  close(): void {
    try { this.f.close(); } catch { /* closing a broken file must not throw */ }
  }
}

/**
 * An HDF5 file without MATLAB's header whose top-level datasets carry MATLAB_class attributes
 * (written by hdf5storage or by hand) is still a MATLAB file: its axes are reversed too.
 */
export async function hasMatlabClasses(path: string): Promise<boolean> {
  const h5 = await h5lib();
  let f: H5File | null = null;
  try {
    f = openH5(h5, path);
    const file = f;
    return guard(path, 'HDF5', 'listing failed', () => {
      const ds = listDatasets(h5, file, true, path).filter((e) => e.ds);
      return ds.length > 0 && ds.every((e) => attrString(e.ds!, 'MATLAB_class') !== undefined);
    });
  } catch {
    return false;
  } finally {
    try { f?.close(); } catch { /* broken file */ }
  }
}

const MATLAB_CLASS: Record<DType, string> = {
  float64: 'double', float32: 'single', int32: 'int32', int64: 'int64', uint8: 'uint8', int8: 'int8', int16: 'int16', uint16: 'uint16', uint32: 'uint32',
};
const H5_DTYPE: Record<DType, string> = {
  float64: '<d', float32: '<f', int32: '<i', int64: '<q', uint8: '<B', int8: '<b', int16: '<h', uint16: '<H', uint32: '<I',
};

/** The 512-byte block MATLAB puts in front of the HDF5 data of a v7.3 file. */
export function matlabHeader(date = new Date()): Uint8Array {
  const text = `MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: ${date.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4')} HDF5 schema 1.00 .`;
  const out = new Uint8Array(512);
  out.fill(0x20, 0, 116);
  for (let i = 0; i < Math.min(text.length, 116); i++) out[i] = text.charCodeAt(i);
  // 116..123: subsystem data offset (none); 124..125: version 0x0200; 126..127: 'IM' (little endian)
  out[124] = 0x00; out[125] = 0x02; out[126] = 0x49; out[127] = 0x4d;
  return out;
}

/** MATLAB has no 1-D arrays: vectors become rows (scipy's oned_as='row'), scalars 1x1. */
function matlabShape(shape: readonly number[]): number[] {
  if (shape.length === 0) return [1, 1];
  if (shape.length === 1) return [1, shape[0]];
  return [...shape];
}

const PIECE_BYTES = 256 << 20;

/** Writes variables as a MATLAB v7.3 file, atomically. */
export async function writeMat73(path: string, vars: Record<string, NdArray>): Promise<void> {
  const h5 = await h5lib();
  for (const name of Object.keys(vars)) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,62}$/.test(name)) throw new DataError(path, name, 'not a valid MATLAB variable name', 'a letter followed by letters, digits or _ (at most 63)');
  }
  const body = tempSibling(path) + '.h5';
  try {
    const f = openH5(h5, body, 'w');
    try {
      for (const [name, arr] of Object.entries(vars)) {
        const mshape = matlabShape(arr.shape);
        const h5shape = [...mshape].reverse();
        const data = cToFortran(arr.data, mshape) as TypedArray; // C order of h5shape
        const rowElems = h5shape.slice(1).reduce((a, b) => a * b, 1);
        const rowBytes = rowElems * DTYPE_BYTES[arr.dtype];
        let ds: Dataset;
        if (data.length * DTYPE_BYTES[arr.dtype] <= PIECE_BYTES || h5shape[0] <= 1) {
          ds = f.create_dataset({ name, data, shape: h5shape, dtype: H5_DTYPE[arr.dtype] });
        } else {
          // too large for one copy into wasm memory: a chunked dataset written in pieces
          const per = Math.max(1, Math.floor(PIECE_BYTES / rowBytes));
          const chunkRows = Math.max(1, Math.min(per, Math.floor((4 << 20) / rowBytes)));
          ds = f.create_dataset({
            name, data: data.subarray(0, per * rowElems), shape: [per, ...h5shape.slice(1)], dtype: H5_DTYPE[arr.dtype],
            maxshape: h5shape, chunks: [chunkRows, ...h5shape.slice(1)],
          });
          ds.resize(h5shape);
          for (let r0 = per; r0 < h5shape[0]; r0 += per) {
            const r1 = Math.min(h5shape[0], r0 + per);
            ds.write_slice([[r0, r1]], data.subarray(r0 * rowElems, r1 * rowElems));
          }
        }
        const cls = MATLAB_CLASS[arr.dtype];
        ds.create_attribute('MATLAB_class', cls, null, `A${cls.length}`);
      }
    } finally {
      f.close();
    }
    prependUserblock(body, path);
  } catch (err) {
    rmSync(body, { force: true });
    if (err instanceof DataError) throw err;
    // an abort while writing also retires the instance
    guard(path, 'HDF5', 'writing failed', () => { throw err; });
  }
  rmSync(body, { force: true });
}

/**
 * Copies the HDF5 file `body` behind MATLAB's 512-byte header into `path`, moving the superblock's
 * base address to 512 (and the end-of-file address with it) exactly as HDF5 does for a user block.
 */
function prependUserblock(body: string, path: string): void {
  const src = openSync(body, 'r');
  const tmp = tempSibling(path);
  const dst = openSync(tmp, 'w');
  try {
    const sb = new Uint8Array(56);
    readSync(src, sb, 0, 56, 0);
    const dv = new DataView(sb.buffer);
    if (sb[8] !== 0 || sb[13] !== 8 || sb[14] !== 8) throw new DataError(path, 'HDF5', `unexpected superblock (version ${sb[8]}, offsets ${sb[13]})`, 'version 0 with 8-byte offsets');
    dv.setBigUint64(24, dv.getBigUint64(24, true) + 512n, true); // base address
    dv.setBigUint64(40, dv.getBigUint64(40, true) + 512n, true); // end-of-file address
    writeSync(dst, matlabHeader());
    writeSync(dst, sb);
    const buf = new Uint8Array(64 << 20);
    for (let pos = 56; ;) {
      const n = readSync(src, buf, 0, buf.length, pos);
      if (n <= 0) break;
      let w = 0;
      while (w < n) w += writeSync(dst, buf, w, n - w);
      pos += n;
    }
    fsyncSync(dst);
  } catch (err) {
    closeSync(dst);
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    closeSync(src);
  }
  closeSync(dst);
  commitTemp(tmp, path);
}

/** A MATLAB header of version 0x0200 with HDF5's superblock at byte 512. */
export const mat73Format: DataFormat = {
  name: 'mat73',
  match(head, file) {
    if (matlabHeaderVersion(head)?.version !== 0x0200) return null;
    if (startsWith(head, HDF5_SIGNATURE, 512)) return { format: 'mat73', superblockOffset: 512 };
    throw new DataError(file, 'header', 'MAT v7.3 header without an HDF5 superblock at byte 512 (truncated or corrupt)');
  },
  open: (path) => Mat73File.open(path),
};
