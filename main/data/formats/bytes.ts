// Low-level helpers shared by the hand-written readers: positional file reads with bounds checks,
// byte swapping, typed-array construction by dtype, and column-major -> row-major transposition.
import { closeSync, fstatSync, readSync } from 'node:fs';
import type { DType, TypedArray } from '../ndarray';
import { DataError } from './errors';
import { openRegularFile } from './regular-file';
import { DTYPE_BYTES } from './types';

/** A file read by offset, so headers and single variables can be read without loading the whole file. */
export class RandomAccessFile {
  readonly path: string;
  readonly size: number;
  private fd: number | null;
  constructor(path: string) {
    this.path = path;
    this.fd = openRegularFile(path);
    this.size = fstatSync(this.fd).size;
  }
  /** Reads exactly `length` bytes at `offset`; a request past the end is a DataError naming `field`. */
  read(offset: number, length: number, field: string): Uint8Array {
    if (this.fd === null) throw new DataError(this.path, field, 'file already closed');
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new DataError(this.path, field, `needs bytes ${offset}..${offset + length} but the file has ${this.size} (truncated or corrupt)`);
    }
    const out = new Uint8Array(length);
    this.readInto(out, offset, field);
    return out;
  }
  /** Fills `dst` from `offset`; checked against the file length first. */
  readInto(dst: Uint8Array, offset: number, field: string): void {
    if (this.fd === null) throw new DataError(this.path, field, 'file already closed');
    if (offset < 0 || offset + dst.length > this.size) {
      throw new DataError(this.path, field, `needs bytes ${offset}..${offset + dst.length} but the file has ${this.size} (truncated or corrupt)`);
    }
    let done = 0;
    const CHUNK = 1 << 30; // readSync takes at most 2 GiB per call
    while (done < dst.length) {
      const n = readSync(this.fd, dst, done, Math.min(CHUNK, dst.length - done), offset + done);
      if (n <= 0) throw new DataError(this.path, field, `unexpected end of file at byte ${offset + done}`);
      done += n;
    }
  }
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

export function allocTyped(dtype: DType, n: number): TypedArray {
  switch (dtype) {
    case 'float32': return new Float32Array(n);
    case 'float64': return new Float64Array(n);
    case 'int32': return new Int32Array(n);
    case 'int64': return new BigInt64Array(n);
    case 'uint8': return new Uint8Array(n);
    case 'int8': return new Int8Array(n);
    case 'int16': return new Int16Array(n);
    case 'uint16': return new Uint16Array(n);
    case 'uint32': return new Uint32Array(n);
  }
}

/** A typed view over bytes (copied when unaligned), after swapping to little endian if needed. */
export function typedFromBytes(bytes: Uint8Array, dtype: DType, bigEndian: boolean): TypedArray {
  const size = DTYPE_BYTES[dtype];
  let b = bytes;
  if (b.byteOffset % size !== 0 || bigEndian) b = b.slice(); // own, aligned buffer
  if (bigEndian && size > 1) swapBytes(b, size);
  const n = b.length / size;
  switch (dtype) {
    case 'float32': return new Float32Array(b.buffer, b.byteOffset, n);
    case 'float64': return new Float64Array(b.buffer, b.byteOffset, n);
    case 'int32': return new Int32Array(b.buffer, b.byteOffset, n);
    case 'int64': return new BigInt64Array(b.buffer, b.byteOffset, n);
    case 'uint8': return new Uint8Array(b.buffer, b.byteOffset, n);
    case 'int8': return new Int8Array(b.buffer, b.byteOffset, n);
    case 'int16': return new Int16Array(b.buffer, b.byteOffset, n);
    case 'uint16': return new Uint16Array(b.buffer, b.byteOffset, n);
    case 'uint32': return new Uint32Array(b.buffer, b.byteOffset, n);
  }
}

export function swapBytes(b: Uint8Array, size: number): void {
  for (let i = 0; i + size <= b.length; i += size) {
    for (let l = i, r = i + size - 1; l < r; l++, r--) {
      const t = b[l]; b[l] = b[r]; b[r] = t;
    }
  }
}

/** Converts between element types (MAT v5 may store a double matrix as uint8, int16, ...). */
export function convertTyped(src: TypedArray, dtype: DType): TypedArray {
  const out = allocTyped(dtype, src.length);
  if (out.constructor === src.constructor) { (out as Float64Array).set(src as Float64Array); return out; }
  const srcBig = src instanceof BigInt64Array;
  const dstBig = out instanceof BigInt64Array;
  if (dstBig) {
    const o = out as BigInt64Array;
    for (let i = 0; i < src.length; i++) o[i] = srcBig ? (src as BigInt64Array)[i] : BigInt(Math.trunc((src as Float64Array)[i]));
  } else if (srcBig) {
    const o = out as Float64Array;
    for (let i = 0; i < src.length; i++) o[i] = Number((src as BigInt64Array)[i]);
  } else {
    (out as Float64Array).set(src as Float64Array); // typed-array set converts numerically
  }
  return out;
}

/**
 * Column-major (Fortran/MATLAB) data for `shape` -> row-major data for the same `shape`.
 * Equivalent to reversing every axis; done as cache-blocked 2D transposes between the first
 * and last axes for each index of the middle axes (the naive loop is ~10x slower on 421^2 x 1024).
 */
export function fortranToC<T extends TypedArray>(src: T, shape: readonly number[], into?: { out: T; lastSize: number; lastOffset: number }): T {
  // `into`: write the result as the slab [.., lastOffset : lastOffset + shape[last]] of a larger
  // row-major array whose last axis has lastSize entries (MAT v7.3 pieces go straight to place)
  const n = shape.length;
  if (n <= 1 && !into) return src;
  if (n === 1) { (into!.out as Float64Array).set(src as Float64Array, into!.lastOffset); return into!.out; }
  const out = into ? into.out : new (src.constructor as { new (len: number): T })(src.length);
  const off = into ? into.lastOffset : 0;
  const A = shape[0];
  const C = shape[n - 1];
  const mid = shape.slice(1, n - 1);
  // F strides (input) and C strides (output)
  const fStride: number[] = new Array(n);
  const cStride: number[] = new Array(n);
  fStride[0] = 1;
  for (let k = 1; k < n; k++) fStride[k] = fStride[k - 1] * shape[k - 1];
  cStride[n - 1] = 1;
  for (let k = n - 2; k >= 0; k--) cStride[k] = cStride[k + 1] * (k + 1 === n - 1 && into ? into.lastSize : shape[k + 1]);
  const inC = fStride[n - 1];
  const outA = cStride[0];
  const midCount = mid.reduce((a, b) => a * b, 1);
  const idx = new Array(mid.length).fill(0);
  const s = src as unknown as Float64Array;
  const o = out as unknown as Float64Array;
  const T = 32;
  for (let m = 0; m < midCount; m++) {
    let inBase = 0, outBase = off;
    for (let k = 0; k < mid.length; k++) { inBase += idx[k] * fStride[k + 1]; outBase += idx[k] * cStride[k + 1]; }
    for (let a0 = 0; a0 < A; a0 += T) {
      const a1 = Math.min(A, a0 + T);
      for (let c0 = 0; c0 < C; c0 += T) {
        const c1 = Math.min(C, c0 + T);
        for (let a = a0; a < a1; a++) {
          const ob = outBase + a * outA;
          const ib = inBase + a;
          for (let c = c0; c < c1; c++) o[ob + c] = s[ib + c * inC];
        }
      }
    }
    for (let k = mid.length - 1; k >= 0; k--) { if (++idx[k] < mid[k]) break; idx[k] = 0; }
  }
  return out;
}

/** Row-major -> column-major for `shape` (inverse of fortranToC), used by writers. */
export function cToFortran<T extends TypedArray>(src: T, shape: readonly number[]): T {
  // Reading C-order data of `shape` as F-order data of the reversed shape and reversing back.
  return fortranToC(src, [...shape].reverse());
}

export function checkedSize(file: string, field: string, shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isSafeInteger(d) || d < 0) throw new DataError(file, field, `invalid dimension ${d} in shape [${shape.join(', ')}]`);
    n *= d;
    if (!Number.isSafeInteger(n)) throw new DataError(file, field, `shape [${shape.join(', ')}] is too large`);
  }
  return n;
}

/** Whether `b` holds `sig` at byte `at`. */
export function startsWith(b: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

export const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** A MATLAB 128-byte header's version and byte order ('IM' little, 'MI' big), or null where the bytes are not one. */
export function matlabHeaderVersion(head: Uint8Array): { version: number; bigEndian: boolean } | null {
  if (head.length < 128 || new TextDecoder('latin1').decode(head.subarray(0, 6)) !== 'MATLAB') return null;
  const little = head[126] === 0x49 && head[127] === 0x4d;
  const big = head[126] === 0x4d && head[127] === 0x49;
  if (!little && !big) return null;
  return { version: little ? head[124]! | (head[125]! << 8) : (head[124]! << 8) | head[125]!, bigEndian: big };
}
