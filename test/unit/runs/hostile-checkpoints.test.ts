// Hardening II: checkpoints and safetensors built to hang, balloon or confuse the readers
// are refused quickly with a message naming the file and the limit. Fixtures: test/fixtures/pt/,
// the hostile ones written by tools/parity/make_hostile_pt_fixtures.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { parseTorchCheckpoint, readTorchCheckpointFile, toJson, JSON_MAX_DEPTH, JSON_MAX_NODES } from '../../../main/runs/torch-checkpoint';
import { globalAllowed, unpickle, type PyValue } from '../../../main/runs/torch-pickle';
import { readReleaseCheckpoint, isTorchFile } from '../../../main/runs/release-checkpoint';
import { readReleaseCheckpointWithDeadline } from '../../../main/runs/release-checkpoint';
import { parseSafetensors, readSafetensorsFile } from '../../../main/runs/safetensors';
import { generateDataset, resolveParams, PRESETS } from '../../../main/data/generate/index';
import { SAMPLERS } from '../../../main/data/generate/samplers';
import type { BenchmarkName } from '../../../main/data/generate/types';

const FIX = new URL('../../fixtures/pt/', import.meta.url).pathname;
const noHooks = { persistentLoad: () => null, rebuild: () => null };
const enc = (s: string) => new TextEncoder().encode(s);
const cat = (...parts: (Uint8Array | number[] | string)[]) => {
  const bs = parts.map((p) => (typeof p === 'string' ? enc(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(bs.reduce((a, b) => a + b.length, 0));
  let o = 0;
  for (const b of bs) { out.set(b, o); o += b.length; }
  return out;
};
/** BINUNICODE of `s`. */
const str = (s: string) => { const b = enc(s); return cat([0x58, b.length & 0xff, (b.length >> 8) & 0xff, 0, 0], b); };
const ckZip = (pkl: Uint8Array) => zipSync({ 'archive/data.pkl': [pkl, { level: 0 }], 'archive/version': [enc('3\n'), { level: 0 }] });
const safetensors = (header: string, data = new Uint8Array(0)) => {
  const h = enc(header);
  const out = new Uint8Array(8 + h.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  out.set(data, 8 + h.length);
  return out;
};

test('repro 1: a DAG "billion laughs" in args (16 KB, 2^64 values as a tree) is refused in well under a second, naming the file and the limit', () => {
  const t0 = Date.now();
  assert.throws(() => readReleaseCheckpoint(join(FIX, 'dag-args.pt')), (e: Error) => {
    assert.match(e.message, /dag-args\.pt: field 'args' holds more than 100000 values \(shared references counted each time they are reached\); refused/);
    return true;
  });
  assert.ok(Date.now() - t0 < 15_000, 'refused, not walked');
});

test('repro 1: the DAG file through the checkpoint worker (what runs.importCheckpoint uses) is refused the same way, and the deadline stops a slow decode', async () => {
  await assert.rejects(readReleaseCheckpointWithDeadline(join(FIX, 'dag-args.pt'), 60_000), /dag-args\.pt: field 'args' holds more than 100000 values/);
  await assert.rejects(readReleaseCheckpointWithDeadline(join(FIX, 'release-1d-standard.pt'), 1), /release-1d-standard\.pt: reading the checkpoint took longer than 0\.001 s and was stopped/);
  const ok = await readReleaseCheckpointWithDeadline(join(FIX, 'release-1d-standard.pt'), 60_000);
  assert.equal(ok.epoch, 7);
  assert.ok(ok.weights.get('fc0.weight')?.data instanceof Float32Array || ok.weights.size > 0);
});

test('repro 2: a FIFO named .pt or .safetensors is refused without blocking, by name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-fifo-'));
  try {
    for (const name of ['f.pt', 'f.safetensors']) {
      const fifo = join(dir, name);
      execFileSync('mkfifo', [fifo]);
      const re = new RegExp(`${name.replace('.', '\\.')}: is not a regular file \\(it is a FIFO \\(named pipe\\)\\); it is not read`);
      assert.throws(() => readTorchCheckpointFile(fifo), re);
      assert.throws(() => readSafetensorsFile(fifo), re);
      assert.throws(() => readReleaseCheckpoint(fifo), re);
      assert.equal(isTorchFile(join(dir, 'f.safetensors')), false, 'the sniff does not open a FIFO');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('repro 3: zero strides cannot multiply memory: a view holds at most its storage\'s elements', () => {
  assert.throws(() => readTorchCheckpointFile(join(FIX, 'zero-stride.pt')), /zero-stride\.pt: tensor \[134217728\] has 134217728 elements over storage 'zero-stride\/data\/\d+' of 1 \(stride \(0\)\): a tensor may hold at most its storage's elements; refused/);
  // repro 7: [2^30, 2^30] over one element: the same clear refusal, never "Invalid typed array length"
  assert.throws(() => readTorchCheckpointFile(join(FIX, 'huge-shape.pt')), /huge-shape\.pt: tensor \[1073741824, 1073741824\] has \d+ elements over storage/);
});

test('repro 7: cyclic and 100k-deep args, 300k APPENDS and a 300k-item list give messages naming the file and the limit', () => {
  assert.throws(() => readReleaseCheckpoint(join(FIX, 'cyclic-args.pt')), /cyclic-args\.pt: field 'args\.x\[0\]' contains itself \(a cyclic reference\); refused/);
  let deep: PyValue = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.throws(() => toJson(new Map([['x', deep]]), 'deep.pt'), new RegExp(`deep\\.pt: field 'args\\.x(\\[0\\])+' is nested deeper than ${JSON_MAX_DEPTH} levels; refused`));
  const appends = cat([0x80, 0x02, 0x5d, 0x28], new Uint8Array(600_000).map((_, i) => (i % 2 ? 1 : 0x4b)), [0x65, 0x2e]);
  const list = unpickle(appends, 'appends.pkl', noHooks) as PyValue[];
  assert.equal(list.length, 300_000);
  assert.throws(() => toJson(new Map([['big', list]]), 'appends.pt'), new RegExp(`appends\\.pt: field 'args' holds more than ${JSON_MAX_NODES} values`));
  // a 100k-deep list built by the pickle VM itself (100k EMPTY_LIST, then APPENDs) does not recurse
  const nested = cat([0x80, 0x02], new Uint8Array(100_000).fill(0x5d), new Uint8Array(99_999).fill(0x61), [0x2e]);
  assert.ok(Array.isArray(unpickle(nested, 'nested.pkl', noHooks)));
});

test('repro 7: an OrderedDict as a persistent id\'s storage type is refused by name', () => {
  const pkl = cat([0x80, 0x02, 0x28], str('storage'), 'ccollections\nOrderedDict\n', str('0'), str('cpu'), [0x4b, 1, 0x74, 0x51, 0x2e]);
  assert.throws(() => parseTorchCheckpoint(ckZip(pkl), 'od.pt'), /od\.pt: archive\/data\.pkl: persistent id names 'collections\.OrderedDict' as its storage type, expected one of torch\.FloatStorage/);
});

test('repro 7: a 5M-deep safetensors header and [2^40, 2^40] shapes are refused naming the file and the limit', () => {
  const deep = '['.repeat(5_000_000) + ']'.repeat(5_000_000);
  assert.throws(() => parseSafetensors(safetensors(deep), 'deep.safetensors'), /deep\.safetensors: header JSON is nested deeper than 8 levels \(a safetensors header has 3\); refused/);
  const huge = JSON.stringify({ w: { dtype: 'F32', shape: [2 ** 40, 2 ** 40], data_offsets: [0, 4] } });
  assert.throws(() => parseSafetensors(safetensors(huge, new Uint8Array(4)), 'huge.safetensors'), /huge\.safetensors: tensor 'w': field 'shape' \[1099511627776, 1099511627776\] needs more bytes than any file holds/);
  // brackets inside strings do not count as depth
  const fine = JSON.stringify({ __metadata__: { note: '[[[[[[[[[[[[' }, w: { dtype: 'F32', shape: [1], data_offsets: [0, 4] } });
  assert.equal(parseSafetensors(safetensors(fine, new Uint8Array(4)), 'ok.safetensors').metadata.note, '[[[[[[[[[[[[');
});

test('repro 7: data.generate refuses 1M × 421² before allocating, naming the parameters; the paper presets stay within the limit', async () => {
  await assert.rejects(generateDataset('darcy', { preset: 'paper', samples: 1_000_000 }, {}, { workers: 0 }), /generate darcy: 'samples' 1000000, resolution 421 make 177241000000 values of '\w+' .*; lower 'samples' or 'resolution'/);
  for (const b of Object.keys(PRESETS) as BenchmarkName[]) {
    const p = resolveParams(b, { preset: 'paper' });
    const shapes = (await SAMPLERS[b]()).shapes(p);
    const bytes = Object.values(shapes).reduce((a, s) => a + 4 * p.samples * s.reduce((x, y) => x * y, 1), 0);
    assert.ok(bytes <= 8 * 2 ** 30, `${b} paper preset fits`);
  }
});

test('repro 8: GLOBAL torch.constructor / torch.__proto__ / torch.toString are refused (own-property lookups only)', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    assert.equal(globalAllowed('torch', name), false, name);
    assert.throws(() => unpickle(cat([0x80, 0x02], `ctorch\n${name}\n`, [0x2e]), 'g.pkl', noHooks), new RegExp(`g\\.pkl: refused global 'torch\\.${name}'`));
    assert.throws(() => unpickle(cat([0x80, 0x02], str('torch'), str(name), [0x93, 0x2e]), 's.pkl', noHooks), new RegExp(`refused global 'torch\\.${name}'`));
  }
  assert.equal(globalAllowed('torch', 'FloatStorage'), true);
});

test('decoding limit: tensors decoding to far more than the file (many views of one storage) are refused', () => {
  // 600 views of one 4 KiB storage would decode to 2.4 MB from a file of a few KB
  const parts: (Uint8Array | number[] | string)[] = [[0x80, 0x02, 0x5d, 0x28]];
  const pid = cat([0x28], str('storage'), 'ctorch\nFloatStorage\n', str('0'), str('cpu'), [0x4d, 0x00, 0x04, 0x74, 0x51]);
  for (let i = 0; i < 600; i++) parts.push('ctorch._utils\n_rebuild_tensor_v2\n', [0x28], pid, [0x4b, 0, 0x4d, 0x00, 0x04, 0x85, 0x4b, 1, 0x85, 0x88], 'ccollections\nOrderedDict\n', [0x29, 0x52, 0x74, 0x52]);
  parts.push([0x65, 0x2e]);
  const zip = zipSync({ 'archive/data.pkl': [cat(...parts), { level: 0 }], 'archive/data/0': [new Uint8Array(4096), { level: 0 }] });
  assert.throws(() => parseTorchCheckpoint(zip, 'views.pt'), /views\.pt: the tensors decode to more than 4 times the file's size/);
});

test('a __proto__ key in args stays an own field, never the prototype', () => {
  const j = toJson(new Map<string, PyValue>([['__proto__', new Map([['polluted', true]])]]), 'p.pt') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(j), Object.prototype);
  assert.deepEqual(Object.keys(j), ['__proto__']);
});
