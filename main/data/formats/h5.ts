// Shared h5wasm plumbing for HDF5 and MAT v7.3: one initialised module with HDF5's error stack
// turned into JS exceptions (instead of printed diagnostics), dtype mapping, bounds checks and
// reads in pieces (wasm32 memory cannot hold a >2 GiB slab; FNO files reach 1.5 GB per variable).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type h5wasmModule from 'h5wasm/node';
import type { Dataset, File as H5File, Group } from 'h5wasm/node';
import type { DType, TypedArray } from '../ndarray';
import { allocTyped, checkedSize } from './bytes';
import { DataError } from './errors';
import { DTYPE_BYTES } from './types';
import { checkRegularFile } from './regular-file';
import { errorMessage } from '../../util/error-message';

export type H5 = typeof h5wasmModule;

let instance: Promise<H5> | null = null;
let generation = 0;

async function load(): Promise<H5> {
  // Imported on first use: the module embeds HDF5's wasm as a 4 MB script, and every process that
  // only imports the data layer (workers, the CLI, each test file) would otherwise parse it.
  // After an abort the wasm instance is unusable: a later load imports the module again under
  // another URL, which instantiates a fresh copy of the HDF5 library.
  const h5: H5 = generation === 0 ? (await import('h5wasm/node')).default : (await import(`${import.meta.resolve('h5wasm/node')}?instance=${generation}`)).default;
  const m = await h5.ready;
  (m as unknown as { activate_throwing_error_handler(): void }).activate_throwing_error_handler();
  confineFileSystem((m as unknown as { FS: EmscriptenFS }).FS);
  return h5;
}

interface EmscriptenFS { open(path: string, flags: unknown, mode?: unknown): unknown; ErrnoError: new (errno: number) => Error }

/** Files h5wasm may open now (absolute path -> open count): the ones our readers and writers chose. */
const allowedFiles = new Map<string, number>();

/**
 * h5wasm reaches the host's files directly (NODERAWFS). HDF5 external links, virtual datasets and
 * external raw storage name other files, which HDF5 would open on its own: anything but the file a
 * reader opened is refused here (EACCES), so a chosen file cannot pull in one it points to.
 */
function confineFileSystem(FS: EmscriptenFS): void {
  const open = FS.open;
  FS.open = function (this: unknown, path: string, flags: unknown, mode?: unknown) {
    // An exclusive create makes a new file and reads nothing: HDF5's error reporting writes its
    // stack through tmpfile() (mkstemp retries on refusal, which made every error slow).
    const exclusiveCreate = typeof flags === 'number' && (flags & O_CREAT_EXCL) === O_CREAT_EXCL;
    if (typeof path !== 'string' || (!exclusiveCreate && !allowedFiles.has(resolve(path)))) throw new FS.ErrnoError(2 /* EACCES */);
    return open.call(this, path, flags, mode);
  };
}

/** O_CREAT | O_EXCL as the wasm side (musl) numbers them. */
const O_CREAT_EXCL = 0o100 | 0o200;


/** The live h5wasm instance (HDF5 errors turned into exceptions instead of printed stacks). */
export function h5lib(): Promise<H5> {
  if (!instance) {
    instance = load().catch((err) => {
      // e.g. a bundle that cannot import the module a second time: say so, and try again next time
      instance = null;
      throw new DataError('', 'HDF5', `the HDF5 library could not be loaded (${(err as Error).message.split('\n')[0]}); restart the engine`);
    });
  }
  return instance;
}

/** Kept for callers that only need the library initialised. */
export async function h5ready(): Promise<void> {
  await h5lib();
}

export function isWasmAbort(err: unknown): boolean {
  const msg = errorMessage(err);
  const RuntimeError = (globalThis as unknown as { WebAssembly?: { RuntimeError: new () => Error } }).WebAssembly?.RuntimeError;
  return (!!RuntimeError && err instanceof RuntimeError) || /Aborted\(|already aborted|abort\(\) was called/.test(msg);
}

/**
 * Runs an h5wasm call; any failure becomes a DataError naming file and field. A wasm abort (the
 * HDF5 C library gave up on a corrupt file) also retires the instance so the next file gets a fresh one.
 */
export function guard<T>(path: string, field: string, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof DataError) throw err;
    if (isWasmAbort(err)) {
      instance = null;
      generation++;
      throw new DataError(path, field, 'the HDF5 library aborted on this file (corrupt); it is reloaded for the next file');
    }
    throw new DataError(path, field, `${what}: ${h5message(err)}`);
  }
}

/** First line of an HDF5 error stack ("H5Fopen(): unable to open file"), for messages. */
export function h5message(err: unknown): string {
  const text = errorMessage(err);
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const detail = lines.filter((l) => l.startsWith('#')).pop();
  return (detail ? detail.replace(/^#\d+:\s*\S+ line \d+ in /, '') : lines[0] ?? 'HDF5 error').slice(0, 300);
}

/** Opens an HDF5 file (a regular file only) and lets h5wasm open that file and no other until it is closed. */
export function openH5(h5: H5, path: string, mode: 'r' | 'w' = 'r'): H5File {
  if (mode === 'r') checkRegularFile(path);
  const abs = resolve(path);
  allowedFiles.set(abs, (allowedFiles.get(abs) ?? 0) + 1);
  const release = () => {
    const n = (allowedFiles.get(abs) ?? 1) - 1;
    if (n > 0) allowedFiles.set(abs, n);
    else allowedFiles.delete(abs);
  };
  let f: H5File;
  try {
    f = guard(path, 'HDF5', 'cannot open', () => (mode === 'w' ? new h5.File(path, 'w', { libver: ['earliest', 'v108'] }) : new h5.File(path, 'r')));
  } catch (err) {
    release();
    throw err;
  }
  if ((f as unknown as { file_id: bigint }).file_id < 0n) {
    release();
    throw new DataError(path, 'HDF5', 'cannot open (not an HDF5 file or corrupt)');
  }
  const close = f.close.bind(f);
  let open = true;
  f.close = () => {
    try {
      return close();
    } finally {
      if (open) release();
      open = false;
    }
  };
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

/** Bounds of a group walk: deeper or larger files are refused with a message, never walked for minutes. */
export const H5_MAX_DEPTH = 64;
export const H5_MAX_OBJECTS = 10_000;
/** Time a listing may take in the calling thread before it gives up (ms). */
export const H5_WALK_BUDGET_MS = 10_000;

export interface WalkLimits { maxDepth?: number; maxObjects?: number; budgetMs?: number }

/**
 * Every dataset below `group`. Plain HDF5: the link paths of HDF5's own visit (H5Lvisit: each
 * object once, never through soft or external links), refused past `maxDepth` or `maxObjects`
 * before anything else is asked. Paths with something below them are groups and are not asked
 * about; only the others are (h5wasm's get() checks every prefix of a path: quadratic in its depth,
 * so the depth bound is what keeps a deep file from taking minutes).
 * MAT v7.3: only the top-level variables, skipping MATLAB's #refs#/#subsystem# bookkeeping;
 * groups (structs) are listed as such.
 */
export function listDatasets(h5: H5, group: Group, skipMatlabInternal: boolean, file = '', limits: WalkLimits = {}): Array<{ path: string; ds: Dataset | null; kind: string }> {
  const maxDepth = limits.maxDepth ?? H5_MAX_DEPTH;
  const maxObjects = limits.maxObjects ?? H5_MAX_OBJECTS;
  const budgetMs = limits.budgetMs ?? H5_WALK_BUDGET_MS;
  const t0 = performance.now();
  const out: Array<{ path: string; ds: Dataset | null; kind: string }> = [];
  const base = group.path === '/' ? '' : group.path;
  const classify = (p: string, isGroup: boolean) => {
    if (performance.now() - t0 > budgetMs) {
      throw new DataError(file, '/', `listing took longer than ${budgetMs / 1000} s (stopped after ${out.length} objects)`, 'a file whose objects can be listed in time');
    }
    const full = `${base}/${p}`;
    if (isGroup) {
      if (skipMatlabInternal) out.push({ path: p, ds: null, kind: 'group' });
      return;
    }
    let e: ReturnType<Group['get']> = null;
    try {
      e = group.get(full);
    } catch (err) {
      if (isWasmAbort(err)) throw err;
      out.push({ path: p, ds: null, kind: 'unreadable object' });
      return;
    }
    if (e instanceof h5.Dataset) out.push({ path: p, ds: e, kind: 'dataset' });
    else if (e instanceof h5.Group) { if (skipMatlabInternal) out.push({ path: p, ds: null, kind: 'group' }); }
    else if (e && 'filename' in e) out.push({ path: p, ds: null, kind: `external link to '${String(e.filename)}', not followed` });
    else out.push({ path: p, ds: null, kind: 'link' });
  };
  if (skipMatlabInternal) {
    const keys = group.keys().filter((k) => !k.startsWith('#'));
    if (keys.length > maxObjects) throw new DataError(file, '/', `${keys.length} top-level variables`, `at most ${maxObjects}`);
    for (const key of keys) classify(key, false);
    return out;
  }
  const paths = group.paths();
  if (paths.length > maxObjects) throw new DataError(file, '/', `${paths.length} objects, more than the ${maxObjects} a listing walks`, `at most ${maxObjects} groups and datasets`);
  // Paths with something below them are groups reached by hard links: no need to open them.
  const parents = new Set<string>();
  let deepest = '';
  let depth = 0;
  for (const p of paths) {
    const d = p.split('/').length;
    if (d > depth) { depth = d; deepest = p; }
    const i = p.lastIndexOf('/');
    if (i > 0) parents.add(p.slice(0, i));
  }
  if (depth > maxDepth) throw new DataError(file, '/', `groups nested ${depth} deep (at '${deepest.slice(0, 80)}${deepest.length > 80 ? '...' : ''}')`, `at most ${maxDepth} levels`);
  for (const p of paths) classify(p, parents.has(p));
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
    const piece: unknown = guard(path, field, 'read failed', () => ds.slice(ranges));
    const p = piece as TypedArray;
    if (!p || typeof (p as { length?: number }).length !== 'number' || p.length !== (r1 - r0) * rowElems) {
      throw new DataError(path, field, `read returned ${(p as { length?: number })?.length ?? 'nothing'} elements, expected ${(r1 - r0) * rowElems}`);
    }
    if (p.constructor !== out.constructor) throw new DataError(path, field, `read returned ${p.constructor.name}, expected ${dtype}`);
    (out as Float64Array).set(p as Float64Array, r0 * rowElems);
  }
  return out;
}
