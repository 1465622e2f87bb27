// A restricted pickle VM for the data.pkl inside a torch.save zip. Python's pickle runs any
// global it names (the classic payload reduces `os.system`), so no general unpickler is safe; no
// npm package offers an allowlisting unpickler with torch's persistent ids, hence this one.
// Only the opcodes torch.save emits (protocol 2; checked with pickletools on torch 1.13 and the
// torch 2.x save path, which writes the same stream) and the protocol 4/5 framing ones are
// accepted, and only the globals a checkpoint of plain data needs. A global outside the
// allowlist is refused when the GLOBAL opcode names it, before anything could call it: nothing is
// ever executed, REDUCE only applies the allowlisted handlers below.

/** A Python tuple (kept apart from lists so shapes and persistent ids read as such). */
export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}

/** dict and OrderedDict (insertion order kept); keys are scalars or strings. */
export type PyKey = string | number | boolean | null;
export type PyDict = Map<PyKey, PyValue>;

/** A reference to an allowlisted global; only the handler table gives it meaning. */
export class PyGlobal {
  constructor(readonly module: string, readonly name: string) {}
  get qualified() { return `${this.module}.${this.name}`; }
}

/** Whatever a persistent-id or reduce handler returns (tensors, storages). */
export class PyOpaque {
  constructor(readonly kind: string, readonly value: unknown) {}
}

export type PyValue = null | boolean | number | string | PyValue[] | PyTuple | PyDict | PyGlobal | PyOpaque;

/**
 * The globals a state-dict checkpoint needs, and why:
 *   collections.OrderedDict          state_dict() returns one (and its _metadata attribute)
 *   torch._utils._rebuild_tensor_v2  how every tensor is pickled
 *   torch._utils._rebuild_parameter  a tensor saved as nn.Parameter (a module rather than its state_dict)
 *   torch.<T>Storage                 named inside persistent ids: the storage's element type
 * Storages cover float32/float64/int64 (what the release's checkpoints hold) plus int32, float16 and bool, which
 * optimizer and scheduler states may hold. Anything else (builtins.set, torch.device, numpy
 * scalars, classes) is refused: a checkpoint of plain data does not need it.
 */
export const STORAGE_DTYPES: Record<string, { dtype: TorchDType; bytes: number }> = {
  FloatStorage: { dtype: 'float32', bytes: 4 },
  DoubleStorage: { dtype: 'float64', bytes: 8 },
  LongStorage: { dtype: 'int64', bytes: 8 },
  IntStorage: { dtype: 'int32', bytes: 4 },
  HalfStorage: { dtype: 'float16', bytes: 2 },
  BoolStorage: { dtype: 'bool', bytes: 1 },
};
export type TorchDType = 'float32' | 'float64' | 'int64' | 'int32' | 'float16' | 'bool';

const CALLABLE = new Set(['collections.OrderedDict', 'torch._utils._rebuild_tensor_v2', 'torch._utils._rebuild_parameter']);

export function globalAllowed(module: string, name: string): boolean {
  return CALLABLE.has(`${module}.${name}`) || (module === 'torch' && Object.hasOwn(STORAGE_DTYPES, name));
}

export class PickleError extends Error {
  constructor(readonly source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'PickleError';
  }
}

export interface PickleHooks {
  /** BINPERSID: torch's ('storage', type, key, location, numel) tuples. */
  persistentLoad(pid: PyValue): PyValue;
  /** REDUCE of torch._utils._rebuild_tensor_v2 / _rebuild_parameter with its argument tuple. */
  rebuild(fn: string, args: PyValue[]): PyValue;
}

class Mark {}
const MARK = new Mark();
type Slot = PyValue | Mark;

const MAX_MEMO = 10_000_000;
/** Values the VM may create or append (each opcode makes at most a few, so this only bites on spreads). */
export const PICKLE_MAX_VALUES = 20_000_000;
/** Values on the VM's stack at once. */
export const PICKLE_MAX_STACK = 1_000_000;

/** Little-endian reads over the pickle; every read is bounds-checked (a short pickle fails, never reads past). */
class ByteReader {
  pos = 0;
  /** Offset of the opcode being run, for the messages. */
  at = 0;
  private readonly dv: DataView;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  constructor(readonly buf: Uint8Array, readonly source: string) {
    this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  fail(msg: string): never {
    throw new PickleError(this.source, `${msg} (opcode at byte ${this.at})`);
  }
  need(n: number): void {
    if (n < 0 || this.pos + n > this.buf.length) this.fail(`pickle ends after ${this.buf.length} bytes, ${n} more needed: the pickle is truncated`);
  }
  u8(): number { this.need(1); return this.buf[this.pos++]!; }
  u16(): number { this.need(2); const v = this.dv.getUint16(this.pos, true); this.pos += 2; return v; }
  i32(): number { this.need(4); const v = this.dv.getInt32(this.pos, true); this.pos += 4; return v; }
  u32(): number { this.need(4); const v = this.dv.getUint32(this.pos, true); this.pos += 4; return v; }
  /** A 64-bit length, which cannot exceed the pickle itself. */
  u64(): number {
    this.need(8);
    const v = this.dv.getBigUint64(this.pos, true);
    this.pos += 8;
    if (v > BigInt(this.buf.length)) this.fail(`length ${v} exceeds the pickle's ${this.buf.length} bytes`);
    return Number(v);
  }
  f64be(): number { this.need(8); const v = this.dv.getFloat64(this.pos, false); this.pos += 8; return v; }
  str(n: number): string {
    this.need(n);
    try {
      return this.utf8.decode(this.buf.subarray(this.pos, (this.pos += n)));
    } catch {
      return this.fail('string is not valid UTF-8');
    }
  }
  line(): string {
    const end = this.buf.indexOf(0x0a, this.pos);
    if (end < 0) this.fail('GLOBAL name has no terminating newline: the pickle is truncated');
    const s = new TextDecoder('latin1').decode(this.buf.subarray(this.pos, end));
    this.pos = end + 1;
    return s;
  }
  /** LONG1: n bytes of little-endian two's complement, kept only when exactly representable. */
  long1(): number {
    const n = this.u8();
    this.need(n);
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(this.buf[this.pos + i]!);
    if (n && this.buf[this.pos + n - 1]! & 0x80) v -= 1n << BigInt(8 * n);
    this.pos += n;
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) this.fail(`integer ${v} is outside the exactly representable range`);
    return Number(v);
  }
}

/** Runs the pickle in `buf` with the allowlist above; errors name `source`, the opcode and its offset. */
export function unpickle(buf: Uint8Array, source: string, hooks: PickleHooks): PyValue {
  const r = new ByteReader(buf, source);
  const stack: Slot[] = [];
  const marks: number[] = [];
  const memo = new Map<number, PyValue>();
  const fail = (msg: string): never => r.fail(msg);
  let values = 0;
  const count = (n: number) => {
    values += n;
    if (values > PICKLE_MAX_VALUES) fail(`the pickle makes more than ${PICKLE_MAX_VALUES} values; refused`);
    if (stack.length > PICKLE_MAX_STACK) fail(`the pickle's stack holds more than ${PICKLE_MAX_STACK} values; refused`);
  };
  const pop = (): PyValue => {
    const v = stack.pop();
    if (v === undefined || v instanceof Mark) return fail('stack underflow: the pickle is malformed');
    return v;
  };
  const top = (): PyValue => {
    const v = stack[stack.length - 1];
    if (v === undefined || v instanceof Mark) return fail('stack underflow: the pickle is malformed');
    return v;
  };
  const popMark = (): PyValue[] => {
    const m = marks.pop();
    if (m === undefined) return fail('no MARK on the stack: the pickle is malformed');
    const items = stack.splice(m) as Slot[];
    items.shift(); // the mark itself
    if (items.some((x) => x instanceof Mark)) fail('nested MARK: the pickle is malformed');
    return items as PyValue[];
  };
  const put = (i: number) => {
    if (memo.size >= MAX_MEMO) fail(`more than ${MAX_MEMO} memo entries`);
    memo.set(i, top());
  };
  const get = (i: number) => {
    if (!memo.has(i)) fail(`memo entry ${i} read before it was written: the pickle is malformed`);
    stack.push(memo.get(i)!);
  };
  const asDict = (v: PyValue, op: string): PyDict => (v instanceof Map ? v : fail(`${op} on a ${typeName(v)}, expected a dict`));
  const key = (k: PyValue): PyKey => (k === null || typeof k === 'string' || typeof k === 'number' || typeof k === 'boolean' ? k : fail(`dict key of type ${typeName(k)} is not supported`));
  const setItems = (d: PyDict, kv: PyValue[]) => {
    if (kv.length % 2) fail('SETITEMS with an odd number of items');
    count(kv.length / 2);
    for (let i = 0; i < kv.length; i += 2) d.set(key(kv[i]!), kv[i + 1]!);
  };
  const pushGlobal = (module: string, name: string) => {
    if (!globalAllowed(module, name)) {
      fail(`refused global '${module}.${name}': only collections.OrderedDict, torch._utils._rebuild_tensor_v2/_rebuild_parameter and torch storages are allowed in a checkpoint; nothing was executed`);
    }
    stack.push(new PyGlobal(module, name));
  };
  const call = (fn: PyValue, args: PyValue, op: string): PyValue => {
    if (!(fn instanceof PyGlobal) || !CALLABLE.has(fn.qualified)) return fail(`${op} on ${fn instanceof PyGlobal ? `'${fn.qualified}'` : `a ${typeName(fn)}`}, which is not an allowed callable`);
    if (!(args instanceof PyTuple)) return fail(`${op} of '${fn.qualified}' with ${typeName(args)} arguments, expected a tuple`);
    if (fn.qualified === 'collections.OrderedDict') {
      const d: PyDict = new Map();
      const init = args.items[0];
      if (args.items.length > 1 || (init !== undefined && !(Array.isArray(init) && init.length === 0))) fail('OrderedDict(...) with arguments other than none or an empty list');
      return d;
    }
    return hooks.rebuild(fn.qualified, args.items);
  };

  for (;;) {
    r.at = r.pos;
    count(1);
    const op = r.u8();
    switch (op) {
      case 0x80: { const p = r.u8(); if (p < 2 || p > 5) fail(`pickle protocol ${p}, expected 2 to 5`); break; } // PROTO
      case 0x95: r.need(8); r.pos += 8; break; // FRAME: a size hint only
      case 0x7d: stack.push(new Map()); break; // EMPTY_DICT
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x29: stack.push(new PyTuple([])); break; // EMPTY_TUPLE
      case 0x28: marks.push(stack.length); stack.push(MARK); break; // MARK
      case 0x58: stack.push(r.str(r.u32())); break; // BINUNICODE
      case 0x8c: stack.push(r.str(r.u8())); break; // SHORT_BINUNICODE
      case 0x8d: stack.push(r.str(r.u64())); break; // BINUNICODE8
      case 0x4a: stack.push(r.i32()); break; // BININT
      case 0x4b: stack.push(r.u8()); break; // BININT1
      case 0x4d: stack.push(r.u16()); break; // BININT2
      case 0x8a: stack.push(r.long1()); break; // LONG1
      case 0x47: stack.push(r.f64be()); break; // BINFLOAT (big-endian)
      case 0x4e: stack.push(null); break; // NONE
      case 0x88: stack.push(true); break; // NEWTRUE
      case 0x89: stack.push(false); break; // NEWFALSE
      case 0x73: { const v = pop(); const k = pop(); asDict(top(), 'SETITEM').set(key(k), v); break; } // SETITEM
      case 0x75: { const kv = popMark(); setItems(asDict(top(), 'SETITEMS'), kv); break; } // SETITEMS
      case 0x61: { const v = pop(); const l = top(); if (!Array.isArray(l)) fail(`APPEND to a ${typeName(l)}`); (l as PyValue[]).push(v); break; } // APPEND
      case 0x65: { const vs = popMark(); const l = top(); if (!Array.isArray(l)) fail(`APPENDS to a ${typeName(l)}`); count(vs.length); for (const v of vs) (l as PyValue[]).push(v); break; } // APPENDS (a loop: spreading 300k items overflows the call stack)
      case 0x85: stack.push(new PyTuple([pop()])); break; // TUPLE1
      case 0x86: { const b = pop(); const a = pop(); stack.push(new PyTuple([a, b])); break; } // TUPLE2
      case 0x87: { const c = pop(); const b = pop(); const a = pop(); stack.push(new PyTuple([a, b, c])); break; } // TUPLE3
      case 0x74: stack.push(new PyTuple(popMark())); break; // TUPLE
      case 0x71: put(r.u8()); break; // BINPUT
      case 0x72: put(r.u32()); break; // LONG_BINPUT
      case 0x94: put(memo.size); break; // MEMOIZE
      case 0x68: get(r.u8()); break; // BINGET
      case 0x6a: get(r.u32()); break; // LONG_BINGET
      case 0x63: { const module = r.line(); const name = r.line(); pushGlobal(module, name); break; } // GLOBAL
      case 0x93: { const name = pop(); const module = pop(); if (typeof module !== 'string' || typeof name !== 'string') fail('STACK_GLOBAL without two strings'); pushGlobal(module as string, name as string); break; } // STACK_GLOBAL
      case 0x52: { const args = pop(); const fn = pop(); stack.push(call(fn, args, 'REDUCE')); break; } // REDUCE
      case 0x81: { const args = pop(); const cls = pop(); stack.push(call(cls, args, 'NEWOBJ')); break; } // NEWOBJ
      case 0x62: { // BUILD: only an OrderedDict's attributes (state_dict's _metadata), which are dropped
        const state = pop();
        const obj = top();
        if (!(obj instanceof Map)) fail(`BUILD on a ${typeName(obj)}: only dicts take attributes here`);
        if (!(state instanceof Map) && state !== null) fail(`BUILD with a ${typeName(state)} state, expected a dict`);
        break;
      }
      case 0x51: stack.push(hooks.persistentLoad(pop())); break; // BINPERSID
      case 0x2e: { // STOP
        const v = pop();
        if (stack.length) fail(`${stack.length} value(s) left on the stack at STOP: the pickle is malformed`);
        return v;
      }
      default:
        fail(`opcode 0x${op.toString(16).padStart(2, '0')} (${JSON.stringify(String.fromCharCode(op))}) is not allowed in a checkpoint`);
    }
  }
}

export function typeName(v: PyValue | undefined): string {
  if (v === null) return 'None';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof Map) return 'dict';
  if (v instanceof PyGlobal) return `global ${v.qualified}`;
  if (v instanceof PyOpaque) return v.kind;
  return typeof v === 'number' ? 'number' : typeof v === 'string' ? 'str' : 'bool';
}
