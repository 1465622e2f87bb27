// Fuzz cases for the weight formats: PyTorch checkpoints (.pt: mutations of the pickle's
// opcodes and of the zip's structure, as well as raw bytes) and safetensors (header fields, JSON
// structure, raw bytes). Each case is decoded as the app does (readReleaseCheckpoint: pickle VM,
// tensors, args; readSafetensorsFile + inferModel + every tensor to float32). A clean refusal is an
// Error whose message names the file; anything else (TypeError, RangeError, a message naming
// nothing) is a crash, and a case past the harness's guard is a hang.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { readReleaseCheckpoint } from '../../main/runs/release-checkpoint';
import { readSafetensorsFile, toFloat32 } from '../../main/runs/safetensors';
import { inferModel } from '../../main/model/registry';
import { seededRandom } from '../../main/data/stages/split';
import { mutate, type CaseResult } from './cases';

const FIX = fileURLToPath(new URL('../fixtures/', import.meta.url));

export const MODEL_FORMATS: Record<string, string[]> = {
  pt: ['pt/release-1d-standard.pt', 'pt/release-2d-eff.pt', 'pt/cyclic-args.pt'],
  safetensors: ['parity/1d-all-eff.weights.safetensors', 'parity/2d-all-full.weights.safetensors', 'parity/1d-t.weights.safetensors'],
};

type Rnd = () => number;
const int = (rnd: Rnd, n: number) => Math.floor(rnd() * n);
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)]!;

/** Opcodes torch.save writes and a few it never does (each a one-byte op; arguments follow as random bytes). */
const OPCODES = [0x80, 0x95, 0x7d, 0x5d, 0x29, 0x28, 0x58, 0x8c, 0x8d, 0x4a, 0x4b, 0x4d, 0x8a, 0x47, 0x4e, 0x88, 0x89, 0x73, 0x75, 0x61, 0x65, 0x85, 0x86, 0x87, 0x74, 0x71, 0x72, 0x94, 0x68, 0x6a, 0x63, 0x93, 0x52, 0x81, 0x62, 0x51, 0x2e, 0x30, 0x31, 0x32, 0x69, 0x8e];
const GLOBALS = ['ctorch\nFloatStorage\n', 'ctorch\n__proto__\n', 'ctorch\nconstructor\n', 'ccollections\nOrderedDict\n', 'ctorch._utils\n_rebuild_tensor_v2\n', 'cos\nsystem\n', 'cbuiltins\neval\n'];

/** Opcode-aware mutations of a pickle: insert/duplicate/delete runs of opcodes, extreme lengths, hostile globals. */
function mutatePickle(pkl: Uint8Array, rnd: Rnd): { bytes: Uint8Array; desc: string } {
  const at = int(rnd, pkl.length);
  const kind = int(rnd, 6);
  const splice = (ins: Uint8Array, del = 0) => {
    const out = new Uint8Array(pkl.length - del + ins.length);
    out.set(pkl.subarray(0, at));
    out.set(ins, at);
    out.set(pkl.subarray(at + del), at + ins.length);
    return out;
  };
  if (kind === 0) {
    const ops = Uint8Array.from({ length: 1 + int(rnd, 6) }, () => (rnd() < 0.7 ? pick(rnd, OPCODES) : int(rnd, 256)));
    return { bytes: splice(ops), desc: `pickle: opcodes ${[...ops].map((o) => o.toString(16)).join(' ')} inserted at ${at}` };
  }
  if (kind === 1) {
    const len = 1 + int(rnd, 64);
    return { bytes: splice(new Uint8Array(0), Math.min(len, pkl.length - at)), desc: `pickle: ${len} bytes deleted at ${at}` };
  }
  if (kind === 2) {
    const from = int(rnd, pkl.length);
    const run = pkl.slice(from, from + 1 + int(rnd, 200));
    const times = 1 + int(rnd, 50);
    const rep = new Uint8Array(run.length * times);
    for (let i = 0; i < times; i++) rep.set(run, i * run.length);
    return { bytes: splice(rep), desc: `pickle: bytes ${from}+${run.length} repeated ${times}x at ${at}` };
  }
  if (kind === 3) {
    const g = new TextEncoder().encode(pick(rnd, GLOBALS));
    return { bytes: splice(g), desc: `pickle: global ${JSON.stringify(new TextDecoder().decode(g))} at ${at}` };
  }
  if (kind === 4) {
    // an extreme 4-byte argument (a length, a memo index, an int) right after a random opcode position
    const b = pkl.slice();
    const v = pick(rnd, [0xffffffff, 0x7fffffff, 0x80000000, 0x10000000, 0]);
    new DataView(b.buffer).setUint32(Math.min(at, b.length - 4), v, true);
    return { bytes: b, desc: `pickle: u32 ${v} at ${at}` };
  }
  return mutate(pkl, rnd);
}

/** Zip-level mutations: an entry dropped, renamed, duplicated under a second prefix, deflated, or a storage cut. */
function mutateZip(files: Record<string, Uint8Array>, rnd: Rnd): { files: Zippable; desc: string } {
  const names = Object.keys(files);
  const name = pick(rnd, names);
  const out: Zippable = Object.fromEntries(names.map((n) => [n, [files[n]!, { level: 0 }]]));
  const kind = int(rnd, 5);
  if (kind === 0) { delete out[name]; return { files: out, desc: `zip: '${name}' removed` }; }
  if (kind === 1) { out[name.replace(/^[^/]+/, 'other')] = out[name]!; delete out[name]; return { files: out, desc: `zip: '${name}' moved to another prefix` }; }
  if (kind === 2) { out[`copy/${name.split('/').slice(1).join('/')}`] = [files[name]!, { level: 0 }]; return { files: out, desc: `zip: '${name}' duplicated under copy/` }; }
  if (kind === 3) { out[name] = [files[name]!, { level: 9 }]; return { files: out, desc: `zip: '${name}' deflated` }; }
  const b = files[name]!;
  out[name] = [b.slice(0, int(rnd, b.length + 1)), { level: 0 }];
  return { files: out, desc: `zip: '${name}' truncated` };
}

function mutateTorch(src: Uint8Array, rnd: Rnd): { bytes: Uint8Array; desc: string } {
  const r = rnd();
  if (r < 0.2) return mutate(src, rnd);
  const files = unzipSync(src);
  if (r < 0.75) {
    const pklName = Object.keys(files).find((k) => k.endsWith('/data.pkl'))!;
    const m = mutatePickle(files[pklName]!, rnd);
    files[pklName] = m.bytes as Uint8Array<ArrayBuffer>;
    return { bytes: zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, [v, { level: 0 }]])) as Zippable), desc: m.desc };
  }
  const z = mutateZip(files, rnd);
  return { bytes: zipSync(z.files), desc: z.desc };
}

const EXTREME_NUMS = [0, -1, 1, 2 ** 31, 2 ** 32, 2 ** 40, 2 ** 53, 1e308, 0.5, -(2 ** 31)];

/** safetensors: a header field set to an extreme, deleted or nested; the header length changed; or raw bytes. */
function mutateSafetensors(src: Uint8Array, rnd: Rnd): { bytes: Uint8Array; desc: string } {
  if (rnd() < 0.25) return mutate(src, rnd);
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const n = Number(dv.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(src.subarray(8, 8 + n))) as Record<string, Record<string, unknown>>;
  const data = src.subarray(8 + n);
  const names = Object.keys(header).filter((k) => k !== '__metadata__');
  const name = pick(rnd, names);
  const t = header[name]!;
  const kind = int(rnd, 7);
  let desc: string;
  if (kind === 0) { const f = pick(rnd, ['dtype', 'shape', 'data_offsets']); delete t[f]; desc = `'${name}'.${f} deleted`; }
  else if (kind === 1) { const s = [...(t.shape as number[])]; s[int(rnd, s.length + 1)] = pick(rnd, EXTREME_NUMS); t.shape = s; desc = `'${name}'.shape = ${JSON.stringify(s)}`; }
  else if (kind === 2) { const o = [...(t.data_offsets as number[])]; o[int(rnd, 2)] = pick(rnd, EXTREME_NUMS); t.data_offsets = o; desc = `'${name}'.data_offsets = ${JSON.stringify(o)}`; }
  else if (kind === 3) { t.dtype = pick(rnd, ['F32', 'F16', 'BF16', 'I64', 'BOOL', 'U8', 'X', '__proto__', 'constructor', 7]); desc = `'${name}'.dtype = ${JSON.stringify(t.dtype)}`; }
  else if (kind === 4) { const f = pick(rnd, ['dtype', 'shape', 'data_offsets']); t[f] = pick(rnd, [null, {}, [[1]], 'x', true, Array(1000).fill(1)]); desc = `'${name}'.${f} replaced by ${JSON.stringify(t[f]).slice(0, 40)}`; }
  else if (kind === 5) { header[pick(rnd, ['__metadata__', '__proto__', 'constructor', name])] = pick(rnd, [[], 'x', { a: { b: 1 } }, null, 5]) as never; desc = 'a top-level entry replaced'; }
  else {
    const json = new TextEncoder().encode(JSON.stringify(header));
    const out = new Uint8Array(8 + json.length + data.length);
    out.set(json, 8);
    out.set(data, 8 + json.length);
    const len = pick(rnd, [0n, 1n, BigInt(json.length - 1), BigInt(json.length + 1), 2n ** 63n, 2n ** 32n]);
    new DataView(out.buffer).setBigUint64(0, len, true);
    return { bytes: out, desc: `header length set to ${len}` };
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return { bytes: out, desc };
}

function decode(format: string, path: string): void {
  if (format === 'pt') {
    readReleaseCheckpoint(path);
    return;
  }
  const f = readSafetensorsFile(path);
  inferModel(f.tensors, f.metadata, path);
  for (const t of f.tensors.values()) toFloat32(t);
}

/** Case `i` of a weight format: decoded as the app does; throws (a crash) unless it reads or is refused naming the file. */
export function runModelCase(format: string, seed: number, i: number, tmp: string): CaseResult {
  const rnd = seededRandom(seed * 1000003 + i);
  const which = pick(rnd, MODEL_FORMATS[format]!);
  const src = new Uint8Array(readFileSync(join(FIX, which)));
  const { bytes, desc } = format === 'pt' ? mutateTorch(src, rnd) : mutateSafetensors(src, rnd);
  const path = join(tmp, `case-${i}.${format}`);
  writeFileSync(path, bytes);
  const full = `${which}: ${desc}`;
  try {
    decode(format, path);
    return { outcome: 'ok', desc: full };
  } catch (err) {
    const e = err as Error;
    // A clean refusal is an Error (not a TypeError/RangeError from inside the decoder) naming the file.
    if (e instanceof Error && (e.constructor === Error || e.name === 'PickleError') && e.message.includes(path)) return { outcome: 'data-error', desc: full };
    throw new Error(`${format} case ${i} (${full}): ${e?.name ?? typeof err}: ${e?.message?.split('\n')[0]?.slice(0, 300) ?? String(err)}`);
  } finally {
    rmSync(path, { force: true });
  }
}

/** The untouched fixtures still decode after a fuzz run. */
export function readModelPristine(format: string): void {
  for (const f of MODEL_FORMATS[format]!) if (!f.includes('cyclic')) decode(format, join(FIX, f));
}
