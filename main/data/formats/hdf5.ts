// Plain HDF5 (PDEBench .h5/.hdf5): lists every dataset with its path, shape and dtype; the user
// picks which paths are inputs and targets. Axes are taken as stored (row-major, no reversal).
import type { Dataset, File as H5File } from 'h5wasm/node';
import type { DType, NdArray } from '../ndarray';
import { ndarray } from '../ndarray';
import { checkedSize, HDF5_SIGNATURE, startsWith } from './bytes';
import { hasMatlabClasses, Mat73File } from './mat73';
import { DataError } from './errors';
import { checkDatasetSize, guard, h5dtype, h5lib, listDatasets, openH5, readBlock, type H5 } from './h5';
import { DTYPE_BYTES, type DataFile, type DataFormat, type VariableInfo } from './types';

interface Entry { info: VariableInfo; ds: Dataset | null }

export class Hdf5File implements DataFile {
  readonly format = 'hdf5' as const;
  readonly path: string;
  private f: H5File;
  private h5: H5;
  private entries = new Map<string, Entry>();
  private constructor(path: string, f: H5File, h5: H5) { this.path = path; this.f = f; this.h5 = h5; }

  static async open(path: string): Promise<Hdf5File> {
    const h5 = await h5lib();
    const f = openH5(h5, path);
    const h = new Hdf5File(path, f, h5);
    try { guard(path, 'HDF5', 'listing failed', () => h.scan()); } catch (err) { h.close(); throw err; }
    return h;
  }

  private scan(): void {
    for (const { path: name, ds, kind } of listDatasets(this.h5, this.f, false, this.path)) {
      if (!ds) { this.entries.set(name, { ds: null, info: { name, shape: [], dtype: 'float64', bytes: 0, unsupported: `${kind}, not a dataset` } }); continue; }
      const shape = (ds.shape ?? []).map(Number);
      const dt = h5dtype(ds);
      const dtype: DType = typeof dt === 'string' ? dt : 'float64';
      const n = checkedSize(this.path, name, shape);
      const info: VariableInfo = { name, shape, dtype, bytes: n * DTYPE_BYTES[dtype], note: ds.filters.length ? 'compressed' : undefined };
      if (typeof dt !== 'string') info.unsupported = dt.unsupported;
      else if (ds.shape === null) info.unsupported = 'empty dataspace';
      this.entries.set(name, { ds, info });
    }
  }

  variables(): VariableInfo[] {
    return [...this.entries.values()].map((e) => ({ ...e.info, shape: [...e.info.shape] }));
  }

  private entry(name: string): Entry & { ds: Dataset } {
    const e = this.entries.get(name.replace(/^\/+/, ''));
    if (!e) throw new DataError(this.path, name, 'no such dataset', [...this.entries.keys()].slice(0, 20).map((k) => `'${k}'`).join(', ') || 'a numeric dataset');
    if (e.info.unsupported || !e.ds) throw new DataError(this.path, name, e.info.unsupported ?? 'unreadable', 'a numeric dataset');
    guard(this.path, name, 'cannot inspect', () => checkDatasetSize(this.path, name, e.ds!, e.info.shape, e.info.dtype));
    return e as Entry & { ds: Dataset };
  }

  async read(name: string): Promise<NdArray> {
    const e = this.entry(name);
    const shape = e.info.shape;
    if (shape.length === 0) return ndarray(readBlock(this.path, name, e.ds, [1], e.info.dtype, 0, 0, 1), [], e.info.dtype);
    return ndarray(readBlock(this.path, name, e.ds, shape, e.info.dtype, 0, 0, shape[0]), shape, e.info.dtype);
  }

  /** A hyperslab along axis 0 (samples). */
  async readRows(name: string, start: number, count: number): Promise<NdArray> {
    const e = this.entry(name);
    const shape = e.info.shape;
    if (shape.length === 0) throw new DataError(this.path, name, 'a scalar has no rows');
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count) || start < 0 || count < 0 || start + count > shape[0]) {
      throw new DataError(this.path, name, `rows ${start}..${start + count} out of range`, `0..${shape[0]}`);
    }
    return ndarray(readBlock(this.path, name, e.ds, shape, e.info.dtype, 0, start, count), [count, ...shape.slice(1)], e.info.dtype);
  }

  /** Any hyperslab: one [start, end) per axis (null = the whole axis), e.g. one time step of PDEBench's [N, T, X, Y]. */
  async readSlab(name: string, ranges: Array<[number, number] | null>): Promise<NdArray> {
    const e = this.entry(name);
    const shape = e.info.shape;
    if (ranges.length !== shape.length) throw new DataError(this.path, name, `${ranges.length} ranges for ${shape.length} axes`, `${shape.length} ranges`);
    const r: Array<[number, number]> = ranges.map((x, k) => x ?? [0, shape[k]]);
    r.forEach(([a, b], k) => {
      if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b > shape[k] || a > b) throw new DataError(this.path, name, `range ${a}..${b} on axis ${k}`, `within 0..${shape[k]}`);
    });
    const out = r.map(([a, b]) => b - a);
    const n = checkedSize(this.path, name, out);
    const data = guard(this.path, name, 'read failed', () => e.ds.slice(r)) as unknown as NdArray['data'];
    if (!data || data.length !== n) throw new DataError(this.path, name, `read returned ${data?.length ?? 'nothing'} elements, expected ${n}`);
    return ndarray(data, out, e.info.dtype);
  }

  close(): void {
    try { this.f.close(); } catch { /* closing a broken file must not throw */ }
  }
}

/**
 * HDF5's signature at byte 0 or, after a user block, at 512, 1024, 2048, ... (asked after mat73,
 * whose files carry it at 512 too). A file with MATLAB-class attributes but no MATLAB header is
 * still a MATLAB file (axes reversed) and opens as one.
 */
export const hdf5Format: DataFormat = {
  name: 'hdf5',
  match(head) {
    for (let at = 0; at + 8 <= head.length; at = at === 0 ? 512 : at * 2) if (startsWith(head, HDF5_SIGNATURE, at)) return { format: 'hdf5', superblockOffset: at };
    return null;
  },
  open: async (path) => ((await hasMatlabClasses(path)) ? Mat73File.open(path) : Hdf5File.open(path)),
};
