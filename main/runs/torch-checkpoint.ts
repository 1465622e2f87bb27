// PyTorch `torch.save` checkpoints (the zip format, torch >= 1.6): a zip holding
//   <prefix>/data.pkl      the pickled object (read by ./torch-pickle.ts, allowlisted)
//   <prefix>/data/<key>    one file per storage, raw bytes in the byte order of <prefix>/byteorder
//   <prefix>/version       the format version
// Tensors are rebuilt from (storage, offset, size, stride) into contiguous row-major copies.
import { unzipSync } from 'fflate';
import { f16ToF32 } from './safetensors';
import { readUserFile } from '../util/user-file';
import { PickleError, PyGlobal, PyOpaque, PyTuple, STORAGE_DTYPES, typeName, unpickle, type PyDict, type PyValue, type TorchDType } from './torch-pickle';

export interface TorchTensor {
  dtype: TorchDType;
  shape: number[];
  /** Row-major values; int64 as float64 numbers (exact below 2^53, enough for counters). */
  data: Float32Array | Float64Array | Uint8Array;
}

export const isTensor = (v: PyValue | undefined): v is PyOpaque & { value: TorchTensor } => v instanceof PyOpaque && v.kind === 'tensor';

interface Storage { dtype: TorchDType; bytes: Uint8Array; numel: number; key: string }

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** Largest entry read (a typed array's practical limit; LiNO checkpoints are megabytes). */
const MAX_ENTRY = 2 ** 31 - 1;
/**
 * Decoded tensor bytes allowed per byte of the file: float16 -> float32 doubles a storage, and a
 * few views may share one; zero strides or many views of one storage would multiply it past this.
 */
const DECODED_PER_FILE_BYTE = 4;
/** Decoded bytes every checkpoint may use, however small the file (scalars, empty tensors). */
const DECODED_FLOOR = 1 << 20;
/** toJson's limits: values visited (shared references counted each time they are reached) and depth. */
export const JSON_MAX_NODES = 100_000;
export const JSON_MAX_DEPTH = 100;

/** True when the bytes start like a zip (a torch.save file since torch 1.6, or an .npz). */
export function looksLikeZip(buf: Uint8Array): boolean {
  return ZIP_MAGIC.every((b, i) => buf[i] === b);
}

function decode(s: Storage, offset: number, shape: number[], stride: number[], source: string, budget: { left: number }): TorchTensor {
  const n = shape.reduce((a, b) => a * b, 1);
  // A view never holds more elements than its storage (zero strides would multiply memory), and
  // all views together stay within a small multiple of the file.
  if (n > s.numel) throw new Error(`${source}: tensor [${shape.join(', ')}] has ${n} elements over storage '${s.key}' of ${s.numel} (stride (${stride.join(', ')})): a tensor may hold at most its storage's elements; refused`);
  const outBytes = n * (s.dtype === 'bool' ? 1 : s.dtype === 'float32' || s.dtype === 'float16' ? 4 : 8);
  if (outBytes > budget.left) throw new Error(`${source}: the tensors decode to more than ${DECODED_PER_FILE_BYTE} times the file's size (tensor [${shape.join(', ')}] over storage '${s.key}' needs ${outBytes} bytes, ${Math.max(0, budget.left)} left); refused`);
  budget.left -= outBytes;
  let last = offset;
  for (let d = 0; d < shape.length; d++) if (shape[d]! > 0) last += (shape[d]! - 1) * stride[d]!;
  if (n > 0 && (offset < 0 || last >= s.numel)) {
    throw new Error(`${source}: tensor [${shape.join(', ')}] at storage offset ${offset} with stride (${stride.join(', ')}) reads element ${last}, storage '${s.key}' holds ${s.numel}: the storage is too short`);
  }
  const dv = new DataView(s.bytes.buffer, s.bytes.byteOffset, s.bytes.byteLength);
  const out = s.dtype === 'float32' || s.dtype === 'float16' ? new Float32Array(n) : s.dtype === 'bool' ? new Uint8Array(n) : new Float64Array(n);
  const read = (e: number): number => {
    switch (s.dtype) {
      case 'float32': return dv.getFloat32(4 * e, true);
      case 'float64': return dv.getFloat64(8 * e, true);
      case 'int64': return Number(dv.getBigInt64(8 * e, true));
      case 'int32': return dv.getInt32(4 * e, true);
      case 'float16': return f16ToF32(dv.getUint16(2 * e, true));
      case 'bool': return dv.getUint8(e);
    }
  };
  // Walk the index space row-major, following the strides (handles transposed and sliced views).
  const idx = new Array<number>(shape.length).fill(0);
  let src = offset;
  for (let i = 0; i < n; i++) {
    out[i] = read(src);
    for (let d = shape.length - 1; d >= 0; d--) {
      idx[d]!++;
      src += stride[d]!;
      if (idx[d]! < shape[d]!) break;
      src -= idx[d]! * stride[d]!;
      idx[d] = 0;
    }
  }
  return { dtype: s.dtype, shape, data: out };
}

const ints = (v: PyValue, what: string, source: string): number[] => {
  if (!(v instanceof PyTuple) || !v.items.every((x) => Number.isInteger(x) && (x as number) >= 0)) throw new Error(`${source}: tensor ${what} is a ${typeName(v)}, expected a tuple of non-negative integers`);
  return v.items as number[];
};

/** Reads a torch.save zip: the unpickled object with tensors as PyOpaque('tensor', TorchTensor). */
export function parseTorchCheckpoint(buf: Uint8Array, source: string): PyValue {
  if (!looksLikeZip(buf)) {
    const legacy = buf[0] === 0x80 && buf[1] === 0x02;
    throw new Error(`${source}: not a torch.save zip archive${legacy ? ' (it looks like the legacy format of torch < 1.6; re-save it with torch.save on torch >= 1.6)' : ` (first bytes ${[...buf.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}, expected 50 4b 03 04)`}`);
  }
  let files: Record<string, Uint8Array>;
  const tooBig: string[] = [];
  try {
    // torch.save stores entries uncompressed; a deflated entry claiming far more than the file holds is a zip bomb.
    files = unzipSync(buf, {
      filter: (f) => {
        const ok = f.originalSize <= MAX_ENTRY && (f.compression === 0 || f.originalSize <= Math.max(64 * f.size, 1 << 20));
        if (!ok) tooBig.push(`'${f.name}' (${f.originalSize} bytes from ${f.size})`);
        return ok;
      },
    });
  } catch (e) {
    throw new Error(`${source}: the zip archive cannot be read (${(e as Error).message}): the file is truncated or damaged`);
  }
  if (tooBig.length) throw new Error(`${source}: zip entry ${tooBig[0]} expands beyond what a checkpoint holds (at most ${MAX_ENTRY} bytes, compression at most 64:1); refused`);
  const pkl = Object.keys(files).filter((k) => /^[^/]+\/data\.pkl$/.test(k));
  if (pkl.length !== 1) throw new Error(`${source}: expected one '<prefix>/data.pkl' in the zip, found ${pkl.length ? pkl.join(', ') : 'none'}: not a torch.save checkpoint`);
  const prefix = pkl[0]!.slice(0, -'data.pkl'.length);
  const order = files[`${prefix}byteorder`];
  if (order && new TextDecoder().decode(order).trim() !== 'little') throw new Error(`${source}: ${prefix}byteorder is '${new TextDecoder().decode(order).trim()}', only little-endian checkpoints are supported`);
  const storages = new Map<string, Storage>();
  const budget = { left: Math.max(DECODED_PER_FILE_BYTE * buf.length, DECODED_FLOOR) };
  const pklSource = `${source}: ${pkl[0]}`;
  const value = unpickle(files[pkl[0]!]!, pklSource, {
    persistentLoad(pid) {
      const t = pid instanceof PyTuple ? pid.items : [];
      const [tag, type, key, , numel] = t;
      if (tag !== 'storage' || !(type instanceof PyGlobal) || typeof key !== 'string' || !Number.isInteger(numel)) {
        throw new PickleError(pklSource, `persistent id is not ('storage', <Storage type>, key, location, numel)`);
      }
      const kind = Object.hasOwn(STORAGE_DTYPES, type.name) && type.module === 'torch' ? STORAGE_DTYPES[type.name]! : null;
      if (!kind) throw new PickleError(pklSource, `persistent id names '${type.qualified}' as its storage type, expected one of torch.${Object.keys(STORAGE_DTYPES).join(', torch.')}`);
      const cached = storages.get(key);
      if (cached) return new PyOpaque('storage', cached);
      const path = `${prefix}data/${key}`;
      const bytes = files[path];
      if (!bytes) throw new Error(`${source}: storage '${path}' named by the pickle is missing from the zip`);
      const n = numel as number;
      if (bytes.length < n * kind.bytes) throw new Error(`${source}: storage '${path}' has ${bytes.length} bytes, ${n} ${kind.dtype} elements need ${n * kind.bytes}: the storage is too short`);
      const s: Storage = { dtype: kind.dtype, bytes, numel: n, key: path };
      storages.set(key, s);
      return new PyOpaque('storage', s);
    },
    rebuild(fn, args) {
      if (fn === 'torch._utils._rebuild_parameter') {
        if (!isTensor(args[0])) throw new Error(`${source}: _rebuild_parameter of a ${typeName(args[0])}, expected a tensor`);
        return args[0];
      }
      const [st, offset, size, stride] = args;
      if (!(st instanceof PyOpaque) || st.kind !== 'storage') throw new Error(`${source}: _rebuild_tensor_v2 of a ${typeName(st)}, expected a storage`);
      if (!Number.isInteger(offset)) throw new Error(`${source}: tensor storage offset is a ${typeName(offset)}, expected an integer`);
      const shape = ints(size!, 'size', source);
      const strides = ints(stride!, 'stride', source);
      if (shape.length !== strides.length) throw new Error(`${source}: tensor size has ${shape.length} dims, stride ${strides.length}`);
      return new PyOpaque('tensor', decode(st.value as Storage, offset as number, shape, strides, source, budget));
    },
  });
  return value;
}

export function readTorchCheckpointFile(path: string): PyValue {
  return parseTorchCheckpoint(readUserFile(path, { what: 'a PyTorch checkpoint', maxBytes: MAX_ENTRY }), path);
}

/** A dict's entry by string key. */
export function field(d: PyDict, k: string): PyValue | undefined {
  return d.get(k);
}

/**
 * Converts a pickled value with no tensors into JSON-able data (args, configs). A pickle can share
 * one value many times (a DAG of 64 levels of [a, a] is 2^64 values as a tree) or contain itself,
 * so values are counted each time they are reached, depth is capped and a cycle is refused.
 */
export function toJson(v: PyValue, source = 'checkpoint', field = 'args'): unknown {
  let nodes = 0;
  const open = new Set<object>();
  const walk = (x: PyValue, path: string, depth: number): unknown => {
    if (++nodes > JSON_MAX_NODES) throw new Error(`${source}: field '${field}' holds more than ${JSON_MAX_NODES} values (shared references counted each time they are reached); refused`);
    if (x === null || typeof x !== 'object') return typeof x === 'number' && !Number.isFinite(x) ? String(x) : x;
    if (isTensor(x)) return x.value.shape.length === 0 ? x.value.data[0] : `<tensor ${x.value.dtype} [${x.value.shape.join(', ')}]>`;
    if (!Array.isArray(x) && !(x instanceof PyTuple) && !(x instanceof Map)) return `<${typeName(x)}>`;
    if (depth >= JSON_MAX_DEPTH) throw new Error(`${source}: field '${path}' is nested deeper than ${JSON_MAX_DEPTH} levels; refused`);
    if (open.has(x)) throw new Error(`${source}: field '${path}' contains itself (a cyclic reference); refused`);
    open.add(x);
    try {
      if (x instanceof Map) {
        const out: Record<string, unknown> = {};
        for (const [k, y] of x) Object.defineProperty(out, String(k), { value: walk(y, `${path}.${String(k)}`, depth + 1), enumerable: true, writable: true, configurable: true });
        return out;
      }
      return (Array.isArray(x) ? x : x.items).map((y, i) => walk(y, `${path}[${i}]`, depth + 1));
    } finally {
      open.delete(x);
    }
  };
  return walk(v, field, 0);
}
