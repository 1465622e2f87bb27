// PyTorch checkpoints in: the allowlisting pickle reader, the release's checkpoint dict, `lino
// import` into a run that evaluates like any other, `lino predict --weights x.pt`, and the
// refusals (hostile global, unknown opcode, truncated zip, short storage, per-point normalizer).
// Fixtures: test/fixtures/pt/, written by tools/parity/make_pt_fixtures.py with Debian's
// python3-torch (the version is in manifest.json); a fresh set is written when torch is here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { zipSync } from 'fflate';
import { parseTorchCheckpoint, readTorchCheckpointFile, isTensor } from '../../../main/runs/torch-checkpoint';
import { unpickle, PyTuple } from '../../../main/runs/torch-pickle';
import { readReleaseCheckpoint, weightsAsFile } from '../../../main/runs/release-checkpoint';
import { decodeNpy } from '../../../main/data/formats/npy';
import { sniffFile } from '../../../main/data/formats/sniff';
import { parseLinoConfig } from '../../../main/model/lino/config';
import { LinoOperator } from '../../../main/model/lino/operator';
import { loadStateDict } from '../../../main/runs/state-dict';
import { RunStore } from '../../../main/runs/run-store';
import { loadCheckpoint } from '../../../main/runs/checkpoint';
import { importTorchCheckpoint } from '../../../main/train/import-checkpoint';
import { evaluateRun } from '../../../main/train/evaluate-run';
import { trainRun } from '../../../main/train/runner';
import { main as lino } from '../../../main/cli/lino';

const FIX = new URL('../../fixtures/pt/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(FIX, 'manifest.json'), 'utf8')) as {
  torch: string; payloadMarker: string;
  cases: { name: string; config: Record<string, unknown>; epoch: number; bestValRel: number; keys: Record<string, number[]>; xNormalizer: { mean: number; std: number; eps: number }; yNormalizer: { mean: number; std: number; eps: number } }[];
};
const PY = '/usr/bin/python3';
const tmp = mkdtempSync(join(tmpdir(), 'lino-pt-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const SYNTH_2D = { kind: 'synthetic' as const, grid: [6, 5], train: 4, val: 3 };

function torchAvailable(): string | undefined {
  if (!existsSync(PY)) return `${PY} not found`;
  const r = spawnSync(PY, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `${PY} lacks torch/numpy: ${r.stderr.trim().split('\n').pop()}`;
}
const noTorch = torchAvailable();

const npy = (p: string) => {
  const a = decodeNpy(new Uint8Array(readFileSync(p)), p, 'array');
  return { shape: [...a.shape], data: Float32Array.from(a.data as Float32Array) };
};

/** Our forward of a case's fixed input; returns the max abs and relative L2 error against PyTorch's output. */
function forwardError(dir: string, c: (typeof manifest.cases)[number]): { maxAbs: number; rel: number } {
  const ck = readReleaseCheckpoint(join(dir, `${c.name}.pt`));
  const model = new LinoOperator(parseLinoConfig(c.config, c.name));
  try {
    loadStateDict(model, weightsAsFile(ck.weights), c.name);
    const x = npy(join(dir, `${c.name}.x.npy`));
    const ref = npy(join(dir, `${c.name}.y.npy`));
    const y = tf.tidy(() => model.forward(tf.tensor(x.data, x.shape)).y);
    const ours = y.dataSync() as Float32Array;
    y.dispose();
    assert.deepEqual(ours.length, ref.data.length);
    let maxAbs = 0, num = 0, den = 0;
    for (let i = 0; i < ours.length; i++) {
      const d = ours[i]! - ref.data[i]!;
      maxAbs = Math.max(maxAbs, Math.abs(d));
      num += d * d;
      den += ref.data[i]! ** 2;
    }
    return { maxAbs, rel: Math.sqrt(num / den) };
  } finally {
    model.dispose();
  }
}

test('setup: cpu backend', async () => { assert.ok(await tf.setBackend('cpu')); });

test('release checkpoints import with keys, shapes, normalizers, epoch and best_val_rel intact', () => {
  for (const c of manifest.cases) {
    const ck = readReleaseCheckpoint(join(FIX, `${c.name}.pt`));
    assert.deepEqual(Object.fromEntries([...ck.weights].map(([k, e]) => [k, [...e.shape]])), c.keys, c.name);
    assert.deepEqual([...ck.weights.keys()], Object.keys(c.keys), `${c.name}: key order`);
    assert.equal(ck.model.width, c.config.width);
    assert.equal(ck.model.depth, c.config.depth);
    assert.equal(ck.model.scattering, c.config.scattering === 'standard' ? 'full' : c.config.scattering);
    assert.deepEqual(ck.model.components, c.config.components);
    assert.equal(ck.inChannels, c.config.inChannels);
    assert.equal(ck.outChannels, c.config.outChannels);
    assert.equal(ck.normalizer.applied, true);
    assert.ok(Math.abs(ck.normalizer.x.mean - c.xNormalizer.mean) < 1e-7 && Math.abs(ck.normalizer.x.std - c.xNormalizer.std) < 1e-7);
    assert.ok(Math.abs(ck.normalizer.y.mean - c.yNormalizer.mean) < 1e-7 && Math.abs(ck.normalizer.y.std - c.yNormalizer.std) < 1e-7);
    assert.equal(ck.normalizer.eps, c.xNormalizer.eps);
    assert.equal(ck.epoch, c.epoch);
    assert.equal(ck.bestValRel, c.bestValRel);
    assert.equal(ck.args?.scattering_type, c.config.scattering);
    assert.equal(ck.optimizer?.expAvg.size, ck.weights.size, `${c.name}: AdamW moments for every parameter`);
    assert.equal(ck.optimizer?.step, 2);
    assert.equal(ck.scheduler?.stepSize, 5);
  }
});

test('a strided view (transposed, sliced, storage offset) is read as its contiguous values', () => {
  const top = readTorchCheckpointFile(join(FIX, `${manifest.cases[0]!.name}.pt`)) as Map<string, unknown>;
  const s = top.get('strided');
  assert.ok(isTensor(s as never));
  const ref = npy(join(FIX, `${manifest.cases[0]!.name}.strided.npy`));
  const t = (s as { value: { shape: number[]; data: Float32Array } }).value;
  assert.deepEqual(t.shape, ref.shape);
  assert.deepEqual([...t.data], [...ref.data]);
});

test('predictions of an imported checkpoint match the PyTorch side to 1e-5', () => {
  for (const c of manifest.cases) {
    const e = forwardError(FIX, c);
    console.log(`# ${c.name}: max |ours - torch| ${e.maxAbs.toExponential(2)}, relative L2 ${e.rel.toExponential(2)}`);
    assert.ok(e.maxAbs <= 1e-5, `${c.name}: max abs error ${e.maxAbs}`);
  }
});

test('a checkpoint freshly written by this machine\'s torch.save reads and predicts the same', { skip: noTorch }, () => {
  const dir = join(tmp, 'fresh');
  const r = spawnSync(PY, [new URL('../../../tools/parity/make_pt_fixtures.py', import.meta.url).pathname, dir], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  const fresh = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
  console.log(`# fresh fixtures written by torch ${fresh.torch} (committed ones: torch ${manifest.torch})`);
  for (const c of fresh.cases) assert.ok(forwardError(dir, c).maxAbs <= 1e-5, c.name);
});

test('a pickle naming os.system is refused by name and nothing runs', () => {
  rmSync(manifest.payloadMarker, { force: true });
  const file = join(FIX, 'payload-os-system.pt');
  assert.throws(() => readTorchCheckpointFile(file), (e: Error) => {
    assert.match(e.message, /os\.system/);
    assert.ok(e.message.includes(file), e.message);
    assert.match(e.message, /nothing was executed/);
    return true;
  });
  assert.throws(() => readReleaseCheckpoint(file), /os\.system/);
  assert.equal(existsSync(manifest.payloadMarker), false, 'the payload ran: the marker file exists');
});

test('other globals are refused whether named by GLOBAL or STACK_GLOBAL, and REDUCE needs an allowed callable', () => {
  const hooks = { persistentLoad: () => null, rebuild: () => null };
  const enc = (s: string) => new TextEncoder().encode(s);
  const cat = (...p: (Uint8Array | number[])[]) => Uint8Array.from(p.flatMap((x) => [...x]));
  // GLOBAL 'posix system' (what pickle.dumps writes for os.system on Linux)
  assert.throws(() => unpickle(cat([0x80, 2], enc('cposix\nsystem\n'), enc(')R.')), 'x.pkl', hooks), /refused global 'posix\.system'/);
  // STACK_GLOBAL builtins.eval
  const s = (t: string) => cat([0x8c, t.length], enc(t));
  assert.throws(() => unpickle(cat([0x80, 4], s('builtins'), s('eval'), [0x93], enc(')R.')), 'x.pkl', hooks), /refused global 'builtins\.eval'/);
  // a storage class is allowed as a name, never as a callable
  assert.throws(() => unpickle(cat([0x80, 2], enc('ctorch\nFloatStorage\n'), enc(')R.')), 'x.pkl', hooks), /REDUCE on 'torch\.FloatStorage', which is not an allowed callable/);
  // plain data still reads
  const v = unpickle(cat([0x80, 2], enc('}(X'), [1, 0, 0, 0], enc('a'), [0x4b, 7], enc('X'), [1, 0, 0, 0], enc('b'), [0x88, 0x4e, 0x86], enc('u.')), 'x.pkl', hooks) as Map<string, unknown>;
  assert.equal(v.get('a'), 7);
  assert.ok(v.get('b') instanceof PyTuple);
  // LONG1 (2^40 and -2), BININT (-5), BINFLOAT (big-endian 1.5), SHORT_BINUNICODE, MEMOIZE/BINGET in one list
  const nums = unpickle(cat([0x80, 4, 0x5d, 0x28, 0x8a, 6, 0, 0, 0, 0, 0, 1, 0x8a, 1, 0xfe, 0x4a], [0xfb, 0xff, 0xff, 0xff], [0x47, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], s('hi'), [0x94, 0x68, 0, 0x65, 0x2e]), 'x.pkl', hooks);
  assert.deepEqual(nums, [2 ** 40, -2, -5, 1.5, 'hi', 'hi']);
});

test('an unknown opcode, a truncated zip and a too-short storage are refused naming the file and the problem', () => {
  const bad = join(FIX, 'bad-opcode.pt');
  assert.throws(() => readTorchCheckpointFile(bad), (e: Error) => e.message.includes(bad) && /opcode 0xff .* not allowed/.test(e.message));
  const short = join(FIX, 'short-storage.pt');
  assert.throws(() => readTorchCheckpointFile(short), (e: Error) => e.message.includes(short) && /data\/0' has 4 bytes, 6 float32 elements need 24: the storage is too short/.test(e.message));
  const whole = new Uint8Array(readFileSync(join(FIX, `${manifest.cases[0]!.name}.pt`)));
  for (const n of [whole.length - 30, Math.floor(whole.length / 2), 100]) {
    assert.throws(() => parseTorchCheckpoint(whole.subarray(0, n), 'cut.pt'), (e: Error) => /^cut\.pt: /.test(e.message) && /truncated|damaged/.test(e.message), `cut at ${n}`);
  }
  assert.throws(() => parseTorchCheckpoint(new TextEncoder().encode('not a zip at all'), 'text.pt'), /text\.pt: not a torch\.save zip archive/);
});

test('a per-point normalizer is refused with a message saying why', { skip: noTorch }, () => {
  const out = join(tmp, 'per-point.pt');
  const script = `import torch\ntorch.save({"model_state_dict": {"lifting.linear.weight": torch.zeros(4, 3), "lifting.linear.bias": torch.zeros(4), "blocks.0.reflection.v_proj.weight": torch.zeros(4, 4), "projection.linear.weight": torch.zeros(1, 4), "projection.linear.bias": torch.zeros(1)}, "x_normalizer": {"mean": torch.zeros(6, 5, 1), "std": torch.ones(6, 5, 1), "eps": 1e-5}}, ${JSON.stringify(out)})`;
  const r = spawnSync(PY, ['-c', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.throws(() => readReleaseCheckpoint(out), /x_normalizer\.mean is a tensor \[6, 5, 1\] \(a per-point normalizer\)/);
});

test('lino import makes a run that lists as done and evaluates with the checkpoint\'s normalizer', async () => {
  const ws = join(tmp, 'ws');
  const c = manifest.cases[0]!;
  const logs: string[] = [];
  const orig = console.log;
  console.log = (...a: unknown[]) => { logs.push(a.join(' ')); };
  let code: number;
  try {
    code = await lino(['import', join(FIX, `${c.name}.pt`), '--workspace', ws, '--data', JSON.stringify(SYNTH_2D)]);
  } finally {
    console.log = orig;
  }
  assert.equal(code, 0);
  const id = logs.at(-1)!.trim();
  const store = new RunStore(join(ws, 'runs'));
  const summary = store.list().find((r) => r.id === id)!;
  assert.equal(summary.state, 'done');
  assert.equal(summary.epochsDone, c.epoch);
  assert.equal(summary.bestValRelL2, c.bestValRel);
  const run = store.open(id);
  assert.match(readFileSync(run.eventsPath, 'utf8'), /imported from .*release-2d-eff\.pt/);
  // One metrics record: the imported weights on these data, with the Gates view's statistics.
  const recs = run.readMetrics().records as { type: string; epoch: number; val: { relL2: number }; blocks: { components: string[]; alphaMean: number[]; scalars: Record<string, number> }[] }[];
  assert.equal(recs.length, 1);
  assert.equal(recs[0]!.type, 'epoch');
  assert.equal(recs[0]!.epoch, c.epoch);
  assert.equal(recs[0]!.blocks.length, c.config.depth);
  for (const b of recs[0]!.blocks) {
    assert.deepEqual(b.components, c.config.components);
    assert.ok(Math.abs(b.alphaMean.reduce((x, y) => x + y, 0) - 1) < 1e-5, 'gate weights sum to 1');
    assert.ok(Object.keys(b.scalars).length > 0);
  }
  for (const which of ['best', 'last'] as const) {
    const ck = loadCheckpoint(run.dir, which)!;
    assert.deepEqual(Object.fromEntries([...ck.weights].map(([k, e]) => [k, [...e.shape]])), c.keys);
    assert.deepEqual((ck.state.normalizer as { x: unknown }).x, { mean: c.xNormalizer.mean, std: c.xNormalizer.std });
    assert.equal(ck.expAvg.size, ck.weights.size);
  }
  const ev = await evaluateRun(run, { fields: true });
  assert.equal(ev.epoch, c.epoch);
  // Evaluation and the import's record use the same normalizer: the same validation error.
  assert.ok(Math.abs(ev.resolutions[0]!.metrics.relL2 - recs[0]!.val.relL2) < 1e-6, `${ev.resolutions[0]!.metrics.relL2} vs ${recs[0]!.val.relL2}`);
  assert.equal(ev.resolutions[0]!.fields!.length, 3);
  assert.ok(Number.isFinite(ev.resolutions[0]!.metrics.relL2));
});

test('import refuses data whose channels do not fit, and without data the run lists but evaluation says why', async () => {
  const ws = join(tmp, 'ws2');
  const store = new RunStore(join(ws, 'runs'));
  const full = manifest.cases.find((c) => c.config.dims === 1)!;
  await assert.rejects(importTorchCheckpoint(store, join(FIX, `${full.name}.pt`), { data: SYNTH_2D, workspace: ws }), /the data give 3 input channels \(coordinates included\), the checkpoint's lifting takes 2/);
  assert.equal(store.list().length, 0, 'a refused import leaves no run behind');
  const { run, notes } = await importTorchCheckpoint(store, join(FIX, `${full.name}.pt`), { workspace: ws });
  assert.ok(notes.some((n) => /no data given/.test(n)));
  assert.equal(store.list()[0]!.state, 'done');
  await assert.rejects(evaluateRun(run), /config\.json: field 'data': expected an object/);
});

test('lino predict --weights takes a .pt checkpoint directly', async () => {
  const c = manifest.cases[0]!;
  const out = join(tmp, 'pred.npy');
  const cfg = join(tmp, 'model.json');
  writeFileSync(cfg, JSON.stringify(c.config));
  for (const extra of [[], ['--config', cfg]]) {
    const code = await lino(['predict', '--weights', join(FIX, `${c.name}.pt`), '--input', join(FIX, `${c.name}.x.npy`), '--out', out, '--backend', 'cpu', ...extra]);
    assert.equal(code, 0);
    const ours = npy(out).data;
    const ref = npy(join(FIX, `${c.name}.y.npy`)).data;
    assert.ok(ours.every((v, i) => Math.abs(v - ref[i]!) <= 1e-5));
  }
});

test('damaged checkpoints (random byte changes) are refused with a message naming the file, never anything else', () => {
  const whole = new Uint8Array(readFileSync(join(FIX, `${manifest.cases[0]!.name}.pt`)));
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  // data.pkl is the first entry: changes in the first 4000 bytes land in its header and pickle (STORED entries are not CRC-checked here).
  let refused = 0;
  for (let k = 0; k < 300; k++) {
    const b = whole.slice();
    for (let j = 0; j < 1 + Math.floor(rnd() * 4); j++) b[40 + Math.floor(rnd() * 4000)] = Math.floor(rnd() * 256);
    try {
      parseTorchCheckpoint(b, 'mutated.pt');
    } catch (e) {
      assert.ok(e instanceof Error && e.message.startsWith('mutated.pt'), `case ${k}: ${String(e)}`);
      refused++;
    }
  }
  console.log(`# ${refused} of 300 mutated checkpoints refused, the rest still parsed`);
});

test('a deflated zip entry that would expand far beyond its size (zip bomb) is refused before it is inflated', () => {
  const bomb = zipSync({ 'bomb/data.pkl': new Uint8Array(64 << 20) }, { level: 9 });
  assert.ok(bomb.length < 1 << 20);
  assert.throws(() => parseTorchCheckpoint(bomb, 'bomb.pt'), /bomb\.pt: zip entry 'bomb\/data\.pkl' \(67108864 bytes from \d+\) expands beyond what a checkpoint holds/);
});

test('an imported run resumes training from its checkpoint (AdamW moments, step and epoch carried over)', { timeout: 120_000 }, async () => {
  const ws = join(tmp, 'ws-resume');
  const store = new RunStore(join(ws, 'runs'));
  const c = manifest.cases[0]!;
  const { run } = await importTorchCheckpoint(store, join(FIX, `${c.name}.pt`), { data: { ...SYNTH_2D }, workspace: ws });
  const before = loadCheckpoint(run.dir, 'last')!;
  const out = await trainRun(run, { workspace: ws, maxEpochsThisCall: 1 });
  assert.equal(out.epoch, c.epoch + 1, out.reason);
  const after = loadCheckpoint(run.dir, 'last')!;
  assert.equal(after.state.epoch, c.epoch + 1);
  assert.equal(after.state.optimizer.step, before.state.optimizer.step + Math.ceil(SYNTH_2D.train / 4));
  const recs = run.readMetrics().records;
  assert.equal(recs[0]!.type, 'epoch', 'the import\'s record is kept');
  assert.equal(recs.filter((r) => r.type === 'epoch').length, 2);
});

test('lino info reads a .pt checkpoint and refuses a hostile one', async () => {
  const logs: string[] = [];
  const errs: string[] = [];
  const [log, err, write] = [console.log, console.error, process.stderr.write];
  console.log = (...a: unknown[]) => { logs.push(a.join(' ')); };
  console.error = (...a: unknown[]) => { errs.push(a.join(' ')); };
  // the dispatcher writes its error line to stderr directly
  process.stderr.write = ((chunk: string | Uint8Array) => { errs.push(String(chunk)); return true; }) as typeof process.stderr.write;
  let codes: number[];
  try {
    codes = [await lino(['info', '--weights', join(FIX, 'release-2d-eff.pt')]), await lino(['info', '--weights', join(FIX, 'payload-os-system.pt')])];
  } finally {
    [console.log, console.error, process.stderr.write] = [log, err, write];
  }
  assert.deepEqual(codes, [0, 1]);
  assert.ok(logs.some((l) => /inferred config: \{"dims":2,"inChannels":3,"outChannels":1,"width":8,"depth":2,"scattering":"efficient"/.test(l)), logs.join('\n'));
  assert.match(errs.join('\n'), /refused global 'os\.system'/);
});

test('a .pt opened as a data file is recognised as a checkpoint, not read as an empty .npz', () => {
  assert.throws(() => sniffFile(join(FIX, 'release-2d-eff.pt')), /a PyTorch checkpoint \(torch\.save zip\), not a data file/);
});
