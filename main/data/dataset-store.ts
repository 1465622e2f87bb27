// Prepared datasets cached in the workspace: datasets/<id>/ holds one .npy per array and a
// manifest.json (source, parameters, statistics, content hash). Every file is written atomically
// (temp, fsync, rename) and the manifest last, so a folder with a manifest is complete. Reopening
// reads the arrays straight into typed arrays: no parsing, no recomputation.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ArrayEntry, DatasetManifest, PipelineOptions, PreparedDataset, PreparedSplit, SplitName } from './dataset';
import { writeFileAtomic } from '../util/atomic-file';
import { DataError } from './formats/errors';
import { encodeNpy, NpyFile } from './formats/npy';
import type { NdArray } from './ndarray';
import { ndarray } from './ndarray';
import { cacheKeyFor, describeSource, prepareDataset, type DataSource, type PipelineHooks } from './pipeline';
import { errorMessage } from '../util/error-message';
import { firstNonFloat32 } from '../util/float32';

const SPLITS: SplitName[] = ['train', 'val', 'test'];

export interface LazySplit {
  rows: number;
  /** Rows [start, start + count) of x and y, read by offset. */
  read(start: number, count: number): Promise<{ x: NdArray; y: NdArray }>;
}
export interface LazyDataset { manifest: DatasetManifest; train: LazySplit; val: LazySplit; test: LazySplit; close(): void }

/**
 * Refuses a dataset with a value that is not finite in float32 (an array's value, the manifest's
 * normalization): written, it would be Infinity or NaN, and its statistics null. Names the file and field.
 */
export function assertStorable(dir: string, m: Pick<DatasetManifest, 'normalization'>, arrays: Record<string, NdArray>): void {
  for (const [name, a] of Object.entries(arrays)) {
    if (a.dtype !== 'float32' && a.dtype !== 'float64') continue;
    const at = firstNonFloat32(a.data as ArrayLike<number>);
    if (at >= 0) throw new DataError(join(dir, `${name}.npy`), name, `value ${at} (of ${a.data.length}) is ${(a.data as ArrayLike<number>)[at]}, not finite in float32`, 'finite float32 values (|v| <= 3.4028234e38)');
  }
  for (const which of ['x', 'y'] as const) {
    const n = m.normalization?.[which] as unknown as Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(n ?? {})) {
      if (typeof v === 'number' && firstNonFloat32([v]) >= 0) throw new DataError(join(dir, 'manifest.json'), `normalization.${which}.${k}`, `${v} is not finite in float32`, 'finite float32 values (|v| <= 3.4028234e38)');
    }
  }
}

function splitArrays(ds: PreparedDataset): Record<string, NdArray> {
  const out: Record<string, NdArray> = {};
  for (const s of SPLITS) {
    const p = ds[s];
    out[`${s}_x`] = p.x;
    out[`${s}_y`] = p.y;
    out[`${s}_indices`] = ndarray(p.indices, [p.indices.length], 'int32');
    if (p.windowStart) out[`${s}_window_start`] = ndarray(p.windowStart, [p.windowStart.length], 'int32');
  }
  return out;
}

/** sha256 over every array's name, shape, dtype and bytes, in name order. */
export function contentHash(arrays: Record<string, NdArray>): string {
  const h = createHash('sha256');
  for (const name of Object.keys(arrays).sort()) {
    const a = arrays[name];
    h.update(`${name}|${a.dtype}|${a.shape.join(',')}|`);
    h.update(new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength));
  }
  return h.digest('hex');
}

export class DatasetStore {
  readonly root: string;
  constructor(workspace: string) {
    this.root = join(resolve(workspace), 'datasets');
  }

  /** A store over a folder that directly holds dataset folders (e.g. a copied datasets/). */
  static atFolder(datasetsDir: string): DatasetStore {
    const s = new DatasetStore(datasetsDir);
    (s as { root: string }).root = resolve(datasetsDir);
    return s;
  }

  dir(id: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) throw new DataError(this.root, 'id', `'${id}' is not a dataset id`, 'letters, digits, . _ -');
    return join(this.root, id);
  }

  has(id: string): boolean {
    return existsSync(join(this.dir(id), 'manifest.json'));
  }

  /** Writes a prepared dataset; returns the manifest as stored. Every value must be finite in float32 (assertStorable). */
  save(ds: PreparedDataset): DatasetManifest {
    const id = ds.manifest.id;
    const dir = this.dir(id);
    const arrays = splitArrays(ds);
    assertStorable(dir, ds.manifest, arrays);
    mkdirSync(dir, { recursive: true });
    rmSync(join(dir, 'manifest.json'), { force: true }); // incomplete until the new manifest lands
    const entries: Record<string, ArrayEntry> = {};
    for (const [name, a] of Object.entries(arrays)) {
      writeFileAtomic(join(dir, `${name}.npy`), encodeNpy(a));
      entries[name] = { file: `${name}.npy`, shape: [...a.shape], dtype: a.dtype };
    }
    const manifest: DatasetManifest = { ...ds.manifest, arrays: entries, contentHash: contentHash(arrays) };
    writeFileAtomic(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    ds.manifest.arrays = entries;
    ds.manifest.contentHash = manifest.contentHash;
    return manifest;
  }

  manifest(id: string): DatasetManifest {
    const path = join(this.dir(id), 'manifest.json');
    let m: DatasetManifest;
    try {
      m = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new DataError(path, 'manifest', `cannot read: ${errorMessage(err).split('\n')[0]}`, 'a dataset folder written by the workbench');
    }
    if (m.format !== 'lino-dataset' || m.version !== 1 || !m.arrays) throw new DataError(path, 'format', `format ${m.format} version ${m.version}`, "'lino-dataset' version 1");
    return m;
  }

  /** Opens a stored dataset; `verify` recomputes the content hash. */
  async open(id: string, opts: { verify?: boolean } = {}): Promise<PreparedDataset> {
    const m = this.manifest(id);
    const dir = this.dir(id);
    const arrays: Record<string, NdArray> = {};
    for (const [name, e] of Object.entries(m.arrays!)) {
      const f = new NpyFile(join(dir, e.file), name);
      try {
        const a = await f.read(name);
        if (a.shape.join() !== e.shape.join() || a.dtype !== e.dtype) throw new DataError(f.path, name, `shape [${a.shape.join(', ')}] ${a.dtype}`, `[${e.shape.join(', ')}] ${e.dtype} as the manifest says`);
        arrays[name] = a;
      } finally {
        f.close();
      }
    }
    if (opts.verify && contentHash(arrays) !== m.contentHash) throw new DataError(join(dir, 'manifest.json'), 'contentHash', 'arrays do not match the manifest\'s content hash (modified or corrupt)');
    const split = (s: SplitName): PreparedSplit => ({
      x: arrays[`${s}_x`], y: arrays[`${s}_y`], indices: arrays[`${s}_indices`].data as Int32Array,
      ...(arrays[`${s}_window_start`] ? { windowStart: arrays[`${s}_window_start`].data as Int32Array } : {}),
    });
    return { manifest: m, train: split('train'), val: split('val'), test: split('test') };
  }

  /**
   * Opens a stored dataset without loading it: batches of rows are read from the .npy files by
   * offset, for prepared datasets larger than memory.
   */
  openLazy(id: string): LazyDataset {
    const manifest = this.manifest(id);
    const dir = this.dir(id);
    const files: NpyFile[] = [];
    const open = (name: string) => {
      const e = manifest.arrays![name];
      if (!e) throw new DataError(join(dir, 'manifest.json'), name, 'array missing from the manifest');
      const f = new NpyFile(join(dir, e.file), name);
      files.push(f);
      if (f.header.shape.join() !== e.shape.join()) throw new DataError(f.path, name, `shape [${f.header.shape.join(', ')}]`, `[${e.shape.join(', ')}] as the manifest says`);
      return f;
    };
    try {
      const split = (s: SplitName): LazySplit => {
        const x = open(`${s}_x`), y = open(`${s}_y`);
        return {
          rows: x.header.shape[0],
          async read(start, count) { return { x: await x.readRows(`${s}_x`, start, count), y: await y.readRows(`${s}_y`, start, count) }; },
        };
      };
      return { manifest, train: split('train'), val: split('val'), test: split('test'), close: () => { for (const f of files) f.close(); } };
    } catch (err) {
      for (const f of files) f.close();
      throw err;
    }
  }

  /** A stored dataset with the same arrays (content hash) as `ds`, if any: the same data kept once. */
  findSame(ds: PreparedDataset): DatasetManifest | null {
    const hash = contentHash(splitArrays(ds));
    return this.list().find((m) => m.contentHash === hash && m.benchmark === ds.manifest.benchmark) ?? null;
  }

  list(): DatasetManifest[] {
    if (!existsSync(this.root)) return [];
    const out: DatasetManifest[] = [];
    for (const id of readdirSync(this.root)) {
      if (id.startsWith('.')) continue;
      try { out.push(this.manifest(id)); } catch { /* incomplete or foreign folder */ }
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** The cached dataset for this source and these options, or a freshly prepared and stored one. */
  async prepare(source: DataSource, options: PipelineOptions, hooks: PipelineHooks = {}): Promise<{ dataset: PreparedDataset; cached: boolean }> {
    const key = cacheKeyFor(describeSource(source, options.benchmark), options);
    const id = `${options.benchmark}-${key.slice(0, 12)}`;
    if (this.has(id)) {
      const m = this.manifest(id);
      if (m.cacheKey === key) return { dataset: await this.open(id), cached: true };
    }
    const ds = await prepareDataset(source, options, hooks);
    this.save(ds);
    return { dataset: ds, cached: false };
  }
}
