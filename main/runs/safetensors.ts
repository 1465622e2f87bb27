// safetensors read/write (https://github.com/huggingface/safetensors): 8-byte little-endian header
// length N, N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}, __metadata__?},
// then the raw little-endian data. Every size in the header is checked against the file.
// The file format only: a model's weights go in and out through ./state-dict.ts.
import { writeFileSync, renameSync } from 'node:fs';
import { errorMessage } from '../util/error-message';
import { readUserFile } from '../util/user-file';

export type SafeDType = 'F64' | 'F32' | 'F16' | 'BF16' | 'I64' | 'I32' | 'I16' | 'I8' | 'U8' | 'BOOL';

const BYTES: Record<SafeDType, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };

export interface SafeTensor {
  dtype: SafeDType;
  shape: number[];
  /** Raw little-endian bytes (a copy, aligned). */
  bytes: Uint8Array;
}

export interface SafetensorsFile {
  tensors: Map<string, SafeTensor>;
  metadata: Record<string, string>;
}

// Headers above 100 MB are rejected by the reference implementation too.
const MAX_HEADER = 100_000_000;
/** A header is {name: {dtype, shape: [...], data_offsets: [...]}}: 3 levels; deeper JSON is refused before JSON.parse recurses into it. */
export const MAX_HEADER_DEPTH = 8;
/** Largest safetensors file read (a typed array's practical limit). */
const MAX_FILE = 2 ** 31 - 1;

/** The JSON's nesting depth, scanning brackets outside strings (JSON.parse overflows the stack on millions of levels). */
function jsonDepth(bytes: Uint8Array, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

export function parseSafetensors(buf: Uint8Array, source = 'safetensors'): SafetensorsFile {
  if (buf.length < 8) throw new Error(`${source}: file is ${buf.length} bytes, too short for the 8-byte header length`);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const n = dv.getBigUint64(0, true);
  if (n > BigInt(buf.length - 8) || n > BigInt(MAX_HEADER)) {
    throw new Error(`${source}: header length ${n} exceeds the file's ${buf.length - 8} bytes after the length field`);
  }
  const hlen = Number(n);
  let header: Record<string, unknown>;
  if (jsonDepth(buf.subarray(8, 8 + hlen), MAX_HEADER_DEPTH) > MAX_HEADER_DEPTH) throw new Error(`${source}: header JSON is nested deeper than ${MAX_HEADER_DEPTH} levels (a safetensors header has 3); refused`);
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(8, 8 + hlen)));
  } catch (e) {
    throw new Error(`${source}: header is not valid UTF-8 JSON (${errorMessage(e)})`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new Error(`${source}: header is not a JSON object`);
  const dataStart = 8 + hlen;
  const dataLen = buf.length - dataStart;
  const tensors = new Map<string, SafeTensor>();
  let metadata: Record<string, string> = {};
  const spans: [number, number, string][] = [];
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (typeof info !== 'object' || info === null) throw new Error(`${source}: __metadata__ must be an object of strings`);
      if (Array.isArray(info)) throw new Error(`${source}: __metadata__ must be an object of strings, found an array`);
      metadata = Object.fromEntries(Object.entries(info as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      continue;
    }
    const t = info as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof t !== 'object' || t === null) throw new Error(`${source}: tensor '${name}': entry is not an object`);
    if (typeof t.dtype !== 'string' || !(t.dtype in BYTES)) throw new Error(`${source}: tensor '${name}': field 'dtype' is ${JSON.stringify(t.dtype)}, expected one of ${Object.keys(BYTES).join(', ')}`);
    if (!Array.isArray(t.shape) || !t.shape.every((d) => Number.isInteger(d) && d >= 0)) throw new Error(`${source}: tensor '${name}': field 'shape' must be an array of non-negative integers`);
    const off = t.data_offsets;
    if (!Array.isArray(off) || off.length !== 2 || !off.every((d) => Number.isInteger(d) && d >= 0) || off[0] > off[1]) {
      throw new Error(`${source}: tensor '${name}': field 'data_offsets' must be [begin, end] with 0 <= begin <= end`);
    }
    const dtype = t.dtype as SafeDType;
    const shape = t.shape as number[];
    const [b, e] = off as [number, number];
    const need = shape.reduce((a, c) => a * c, 1) * BYTES[dtype];
    if (!Number.isSafeInteger(need)) throw new Error(`${source}: tensor '${name}': field 'shape' [${shape.join(', ')}] needs more bytes than any file holds`);
    if (e - b !== need) throw new Error(`${source}: tensor '${name}': data_offsets span ${e - b} bytes, ${dtype} [${shape.join(', ')}] needs ${need}`);
    if (e > dataLen) throw new Error(`${source}: tensor '${name}': data ends at byte ${e} of the data section, which has only ${dataLen} bytes`);
    spans.push([b, e, name]);
    tensors.set(name, { dtype, shape: [...shape], bytes: buf.slice(dataStart + b, dataStart + e) });
  }
  spans.sort((p, q) => p[0] - q[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]![0] < spans[i - 1]![1]) throw new Error(`${source}: tensors '${spans[i - 1]![2]}' and '${spans[i]![2]}' overlap`);
  }
  return { tensors, metadata };
}

export function readSafetensorsFile(path: string): SafetensorsFile {
  return parseSafetensors(readUserFile(path, { what: 'a safetensors file', maxBytes: MAX_FILE }), path);
}

/** An IEEE half-precision float's bits as a number. */
export function f16ToF32(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** Decodes any float/int dtype to float32 values (weights are float32 in the model). */
export function toFloat32(t: SafeTensor): Float32Array {
  const dv = new DataView(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
  const n = t.bytes.byteLength / BYTES[t.dtype];
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    switch (t.dtype) {
      case 'F32': out[i] = dv.getFloat32(4 * i, true); break;
      case 'F64': out[i] = dv.getFloat64(8 * i, true); break;
      case 'F16': out[i] = f16ToF32(dv.getUint16(2 * i, true)); break;
      case 'BF16': out[i] = new Float32Array(new Uint32Array([dv.getUint16(2 * i, true) << 16]).buffer)[0]!; break;
      case 'I64': out[i] = Number(dv.getBigInt64(8 * i, true)); break;
      case 'I32': out[i] = dv.getInt32(4 * i, true); break;
      case 'I16': out[i] = dv.getInt16(2 * i, true); break;
      case 'I8': out[i] = dv.getInt8(i); break;
      case 'U8': case 'BOOL': out[i] = dv.getUint8(i); break;
    }
  }
  return out;
}

export interface F32Entry { shape: readonly number[]; data: Float32Array }

/** Serialises float32 tensors; keys sorted, header padded with spaces to 8 bytes as the reference writer does. */
export function serializeSafetensors(tensors: Map<string, F32Entry> | Record<string, F32Entry>, metadata?: Record<string, string>): Uint8Array {
  const entries = [...(tensors instanceof Map ? tensors.entries() : Object.entries(tensors))].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length) header.__metadata__ = metadata;
  let off = 0;
  for (const [name, t] of entries) {
    const size = t.shape.reduce((a, c) => a * c, 1);
    if (size !== t.data.length) throw new Error(`safetensors: tensor '${name}' has ${t.data.length} values, shape [${t.shape.join(', ')}] needs ${size}`);
    header[name] = { dtype: 'F32', shape: [...t.shape], data_offsets: [off, off + 4 * size] };
    off += 4 * size;
  }
  let json = new TextEncoder().encode(JSON.stringify(header));
  const pad = (8 - (json.length % 8)) % 8;
  if (pad) {
    const p = new Uint8Array(json.length + pad).fill(0x20);
    p.set(json);
    json = p;
  }
  const out = new Uint8Array(8 + json.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let pos = 8 + json.length;
  const le = new DataView(out.buffer);
  for (const [, t] of entries) {
    for (let i = 0; i < t.data.length; i++) le.setFloat32(pos + 4 * i, t.data[i]!, true);
    pos += 4 * t.data.length;
  }
  return out;
}

/** Writes atomically (temp file + rename) so a crash never leaves half a weights file. */
export function writeSafetensorsFile(path: string, tensors: Map<string, F32Entry> | Record<string, F32Entry>, metadata?: Record<string, string>): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, serializeSafetensors(tensors, metadata));
  renameSync(tmp, path);
}
