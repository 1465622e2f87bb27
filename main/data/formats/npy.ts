// .npy reader and writer. Hand-written rather than npyjs because npyjs needs the whole file in
// memory (no reads by offset for files larger than memory), rejects big-endian dtypes, ignores
// fortran_order and does not check the header's shape against the file length.
import type { DType, NdArray, TypedArray } from '../ndarray';
import { ndarray } from '../ndarray';
import { basename } from 'node:path';
import { RandomAccessFile, checkedSize, fortranToC, startsWith, typedFromBytes } from './bytes';
import { writeFileAtomic } from '../../util/atomic-file';
import { DataError } from './errors';
import { DTYPE_BYTES, type DataFile, type DataFormat, type VariableInfo } from './types';

export interface NpyHeader {
  dtype: DType;
  bigEndian: boolean;
  fortranOrder: boolean;
  shape: number[];
  /** Byte offset of the data inside the file (or inside the npz member). */
  dataOffset: number;
  descr: string;
}

const DESCR: Record<string, DType> = {
  f4: 'float32', f8: 'float64', i4: 'int32', i8: 'int64', u1: 'uint8', i1: 'int8', i2: 'int16', u2: 'uint16', u4: 'uint32',
};

/** Parses the magic, version and header dict; `size` is the byte count available for data. */
export function parseNpyHeader(head: Uint8Array, size: number, file: string, field = 'header'): NpyHeader {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (head.length < 10 || magic.some((m, i) => head[i] !== m)) throw new DataError(file, field, 'not a .npy array (bad magic)', '\\x93NUMPY');
  const major = head[6];
  let hlen: number, start: number;
  if (major === 1) { hlen = head[8] | (head[9] << 8); start = 10; }
  else if (major === 2 || major === 3) {
    if (head.length < 12) throw new DataError(file, field, 'truncated .npy header');
    hlen = (head[8] | (head[9] << 8) | (head[10] << 16)) + head[11] * 0x1000000; start = 12;
  } else throw new DataError(file, field, `unsupported .npy version ${major}.${head[7]}`, 'version 1, 2 or 3');
  if (start + hlen > size) throw new DataError(file, field, `header length ${hlen} runs past the end of the data (${size} bytes)`);
  if (start + hlen > head.length) throw new DataError(file, field, `header of ${hlen} bytes is longer than supported`, 'at most 64 KiB');
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(head.subarray(start, start + hlen));
  const descrM = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(text);
  const fortM = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(text);
  const shapeM = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(text);
  if (!descrM || !fortM || !shapeM) throw new DataError(file, field, `malformed header dict ${JSON.stringify(text.slice(0, 120))}`, "{'descr', 'fortran_order', 'shape'}");
  const descr = descrM[1];
  const m = /^([<>|=]?)([a-zA-Z]\d+)$/.exec(descr);
  const code = m ? m[2] : '';
  const dtype = DESCR[code];
  if (!m || !dtype) throw new DataError(file, field, `unsupported dtype '${descr}'`, "f4, f8, i4, i8 (or u1, i1, i2, u2, u4), little or big endian");
  const bigEndian = m[1] === '>' && DTYPE_BYTES[dtype] > 1;
  const parts = shapeM[1].split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const shape = parts.map((p) => {
    const v = /^\d+L?$/.test(p) ? Number.parseInt(p, 10) : NaN;
    if (!Number.isSafeInteger(v)) throw new DataError(file, field, `bad dimension '${p}' in shape`, 'non-negative integers');
    return v;
  });
  const n = checkedSize(file, field, shape);
  const dataOffset = start + hlen;
  const need = n * DTYPE_BYTES[dtype];
  if (dataOffset + need > size) {
    throw new DataError(file, field, `shape [${shape.join(', ')}] of ${descr} needs ${need} data bytes but only ${Math.max(0, size - dataOffset)} follow the header (truncated?)`);
  }
  return { dtype, bigEndian, fortranOrder: fortM[1] === 'True', shape, dataOffset, descr };
}

/** Decodes a complete in-memory .npy (used by npz for members it has inflated). */
export function decodeNpy(bytes: Uint8Array, file: string, field: string): NdArray {
  const h = parseNpyHeader(bytes.subarray(0, Math.min(bytes.length, 65536 + 12)), bytes.length, file, field);
  const n = checkedSize(file, field, h.shape);
  const data = typedFromBytes(bytes.subarray(h.dataOffset, h.dataOffset + n * DTYPE_BYTES[h.dtype]), h.dtype, h.bigEndian);
  return ndarray(h.fortranOrder ? fortranToC(data, h.shape) : data, h.shape, h.dtype);
}

/**
 * Rows [start, start+count) of an array stored at `dataOffset` of `raf`, C or Fortran order.
 * Shared with MAT v5 (uncompressed matrices are Fortran-ordered arrays at an offset).
 */
export function readRowsAt(raf: RandomAccessFile, field: string, dataOffset: number, shape: readonly number[], dtype: DType,
  bigEndian: boolean, fortran: boolean, start: number, count: number): TypedArray {
  const N = shape[0] ?? 1;
  const rest = shape.length === 0 ? 1 : checkedSize(raf.path, field, shape.slice(1));
  const is = DTYPE_BYTES[dtype];
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count) || start < 0 || count < 0 || start + count > N) {
    throw new DataError(raf.path, field, `rows ${start}..${start + count} out of range`, `0..${N}`);
  }
  const outShape = [count, ...shape.slice(1)];
  if (!fortran || shape.length <= 1) {
    const bytes = raf.read(dataOffset + start * rest * is, count * rest * is, field);
    return typedFromBytes(bytes, dtype, bigEndian);
  }
  // Fortran order: each of the `rest` columns holds N contiguous rows; take `count` of each.
  if (count === N) return fortranToC(typedFromBytes(raf.read(dataOffset, N * rest * is, field), dtype, bigEndian), outShape);
  const f = new Uint8Array(count * rest * is);
  if (count * 8 >= N) {
    // dense request: read whole columns in spans of <= 64 MiB and pick the rows
    const colBytes = N * is;
    const perSpan = Math.max(1, Math.floor((64 << 20) / colBytes));
    for (let j0 = 0; j0 < rest; j0 += perSpan) {
      const j1 = Math.min(rest, j0 + perSpan);
      const span = raf.read(dataOffset + j0 * colBytes, (j1 - j0) * colBytes, field);
      for (let j = j0; j < j1; j++) f.set(span.subarray((j - j0) * colBytes + start * is, (j - j0) * colBytes + (start + count) * is), j * count * is);
    }
  } else {
    for (let j = 0; j < rest; j++) raf.readInto(f.subarray(j * count * is, (j + 1) * count * is), dataOffset + (j * N + start) * is, field);
  }
  return fortranToC(typedFromBytes(f, dtype, bigEndian), outShape);
}

export class NpyFile implements DataFile {
  readonly format = 'npy' as const;
  readonly path: string;
  readonly header: NpyHeader;
  /** Variable name used in listings: the file's base name without extension. */
  readonly name: string;
  private raf: RandomAccessFile;
  constructor(path: string, name = 'array') {
    this.path = path;
    this.name = name;
    this.raf = new RandomAccessFile(path);
    try {
      const head = this.raf.read(0, Math.min(this.raf.size, 65536 + 12), 'header');
      this.header = parseNpyHeader(head, this.raf.size, path);
    } catch (err) {
      this.raf.close();
      throw err;
    }
  }
  variables(): VariableInfo[] {
    const h = this.header;
    return [{
      name: this.name, shape: [...h.shape], dtype: h.dtype, bytes: checkedSize(this.path, this.name, h.shape) * DTYPE_BYTES[h.dtype],
      note: `${h.descr}${h.fortranOrder ? ', Fortran order' : ''}`,
    }];
  }
  private check(name: string): void {
    if (name !== this.name) throw new DataError(this.path, name, 'no such variable', `'${this.name}'`);
  }
  async read(name: string = this.name): Promise<NdArray> {
    this.check(name);
    const h = this.header;
    if (h.shape.length === 0) return ndarray(readRowsAt(this.raf, name, h.dataOffset, [1], h.dtype, h.bigEndian, false, 0, 1), [], h.dtype);
    return this.readRows(name, 0, h.shape[0]);
  }
  async readRows(name: string, start: number, count: number): Promise<NdArray> {
    this.check(name);
    const h = this.header;
    if (h.shape.length === 0) throw new DataError(this.path, name, 'a 0-d array has no rows');
    const data = readRowsAt(this.raf, name, h.dataOffset, h.shape, h.dtype, h.bigEndian, h.fortranOrder, start, count);
    return ndarray(data, [count, ...h.shape.slice(1)], h.dtype);
  }
  close(): void { this.raf.close(); }
}

const NPY_DESCR: Partial<Record<DType, string>> = {
  float32: '<f4', float64: '<f8', int32: '<i4', int64: '<i8', uint8: '|u1', int8: '|i1', int16: '<i2', uint16: '<u2', uint32: '<u4',
};

/** The header bytes numpy writes (version 1.0, or 2.0 when the dict is long), padded to 64 bytes. */
export function encodeNpyHeader(shape: readonly number[], dtype: DType): Uint8Array {
  const shapeStr = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  const dict = `{'descr': '${NPY_DESCR[dtype]}', 'fortran_order': False, 'shape': ${shapeStr}, }`;
  let pre = 10;
  let total = Math.ceil((pre + dict.length + 1) / 64) * 64;
  if (total - pre > 0xffff) { pre = 12; total = Math.ceil((pre + dict.length + 1) / 64) * 64; }
  const hlen = total - pre;
  const out = new Uint8Array(total);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, pre === 10 ? 1 : 2, 0]);
  if (pre === 10) { out[8] = hlen & 0xff; out[9] = hlen >> 8; }
  else new DataView(out.buffer).setUint32(8, hlen, true);
  const body = dict.padEnd(hlen - 1, ' ') + '\n';
  for (let i = 0; i < body.length; i++) out[pre + i] = body.charCodeAt(i);
  return out;
}

export function encodeNpy(arr: NdArray): Uint8Array[] {
  const d = arr.data;
  return [encodeNpyHeader(arr.shape, arr.dtype), new Uint8Array(d.buffer, d.byteOffset, d.byteLength)];
}

/** Writes `arr` as a C-order little-endian .npy, atomically. */
export function writeNpy(path: string, arr: NdArray): void {
  writeFileAtomic(path, encodeNpy(arr));
}

/** `\x93NUMPY` opens every .npy file; the variable is named after the file. */
export const npyFormat: DataFormat = {
  name: 'npy',
  match: (head) => (startsWith(head, [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]) ? { format: 'npy' } : null),
  open: (path) => new NpyFile(path, basename(path).replace(/\.npy$/i, '')),
};
