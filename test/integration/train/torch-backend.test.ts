// The 'torch' backend (main/train/torch-run.ts) against the engine's own trainer: the same
// configuration and seed, 3 epochs on the engine's cpu backend and on PyTorch cpu (Debian's
// python3-torch), start from the same weights (the workbench's initial weights, written as the
// starting checkpoint) and agree per epoch in train loss and validation relL2 to 1e-4, for tiny
// Darcy LiNO, FNO and DeepONet and a tiny Navier-Stokes rollout. Then what can go wrong: a stop
// mid-run, kill -9 of Python (interrupted, resumable on the engine), a Python traceback, a CUDA
// out-of-memory failure (its reason suggests micro-batches, which scaleout trains to the same numbers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { RunStore } from '../../../main/runs/run-store';
import { parseRunConfig, trainRun } from '../../../main/train/runner';
import { trainTorchRun } from '../../../main/train/torch-run';
import { readCheckpointState } from '../../../main/runs/checkpoint';
import { evaluateRun } from '../../../main/train/evaluate-run';
import { acquireRunLock, RunLockedError } from '../../../main/runs/run-lock';
import { tempDir } from '../../helpers/env';

const PY = '/usr/bin/python3';
const probe = spawnSync(PY, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
const skip = probe.status !== 0 ? `${PY} cannot import torch and numpy (${(probe.stderr || String(probe.error)).trim().split('\n').pop()})` : false;

const ws = tempDir('lino-torch-backend-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
  process.env.LINO_PYTHON = PY;
  process.env.OMP_NUM_THREADS = '1';
});
after(() => ws.cleanup());

const DARCY = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2 };
const NS = { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 5, tIn: 3, tOut: 2, train: 2, val: 1, test: 1 };
const base = { epochs: 3, batchSize: 2, seed: 11, optimizer: { lr: 3e-3 }, schedule: { stepSize: 1, gamma: 0.7 } };
const CASES: [string, Record<string, unknown>][] = [
  ['LiNO Darcy', { ...base, model: { kind: 'lino', width: 8, depth: 2 }, data: DARCY }],
  ['FNO Darcy', { ...base, model: { kind: 'fno', width: 8, depth: 2, modes: 4 }, data: DARCY }],
  ['DeepONet Darcy', { ...base, model: { kind: 'deeponet', width: 16, depth: 2, basis: 8 }, data: DARCY }],
  ['LiNO Navier-Stokes rollout', { ...base, model: { kind: 'lino', width: 8, depth: 1 }, data: NS }],
];

type Epoch = { type: 'epoch'; epoch: number; train: { loss: number }; val: { relL2: number } };
const epochsOf = (dir: string): Epoch[] => readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Epoch).filter((r) => r.type === 'epoch');
const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

for (const [name, cfg] of CASES) {
  test(`${name}: 3 epochs on the engine (cpu) and on PyTorch cpu agree per epoch to 1e-4`, { skip, timeout: 300_000 }, async () => {
    const slug = name.toLowerCase().replace(/[^a-z]+/g, '-');
    const engine = store.create(parseRunConfig({ ...cfg, name }), `${slug}-engine`);
    const e = await trainRun(engine, { workspace: ws.path, owner: 'test' });
    assert.equal(e.state, 'done', e.reason);
    const torch = store.create(parseRunConfig({ ...cfg, name, backend: 'torch', torch: { device: 'cpu' } }), `${slug}-torch`);
    const steps: number[] = [];
    const epochs: number[] = [];
    const t = await trainTorchRun(torch, { workspace: ws.path, owner: 'test', onStep: (s) => steps.push(s.step), onEpoch: (r) => epochs.push(r.epoch) });
    assert.equal(t.state, 'done', t.reason);
    // the hooks saw every record as it was appended, as an engine run's hooks do
    assert.deepEqual(epochs, [1, 2, 3]);
    assert.deepEqual(steps, Array.from({ length: steps.length }, (_, i) => i + 1));
    const a = epochsOf(engine.dir);
    const b = epochsOf(torch.dir);
    assert.equal(b.length, 3);
    const diff = Math.max(...a.flatMap((r, i) => [Math.abs(r.train.loss - b[i]!.train.loss), Math.abs(r.val.relL2 - b[i]!.val.relL2)]));
    console.log(`${name}: max |engine - torch| over per-epoch train loss and val relL2: ${diff.toExponential(2)}`);
    for (let i = 0; i < 3; i++) {
      assert.ok(close(b[i]!.train.loss, a[i]!.train.loss, 1e-4), `epoch ${i + 1} train loss: torch ${b[i]!.train.loss} vs engine ${a[i]!.train.loss}`);
      assert.ok(close(b[i]!.val.relL2, a[i]!.val.relL2, 1e-4), `epoch ${i + 1} val relL2: torch ${b[i]!.val.relL2} vs engine ${a[i]!.val.relL2}`);
    }
    assert.equal(torch.readStatus().state, 'done');
    assert.match(torch.readStatus().backend ?? '', /^torch-cpu/);
    assert.equal(readCheckpointState(torch.dir, 'last')!.epoch, 3);
  });
}

test('the data is written once per dataset and reused by a later run', { skip }, () => {
  const cache = join(ws.path, '.lino', 'torch-data');
  const log = (id: string) => readFileSync(join(store.open(id).dir, 'events.log'), 'utf8');
  assert.match(log('lino-darcy-torch'), /data for PyTorch: wrote/);
  assert.match(log('fno-darcy-torch'), /data for PyTorch: reusing/);
  assert.ok(existsSync(cache));
});

test('a Python traceback: its tail in events.log and the run\'s reason', { skip, timeout: 120_000 }, async () => {
  // an interpreter that runs the real Python but whose scaleout import fails
  const bad = join(ws.path, 'bad-python');
  writeFileSync(bad, `#!/bin/sh\nif [ "$1" = "-c" ]; then exec ${PY} "$@"; fi\nexec ${PY} -c 'import sys; sys.stderr.write("Traceback (most recent call last):\\n  File x\\nRuntimeError: boom from the test\\n"); sys.exit(1)'\n`);
  chmodSync(bad, 0o755);
  const run = store.create(parseRunConfig({ ...CASES[0]![1], name: 'tb', backend: 'torch', torch: { device: 'cpu' } }), 'traceback');
  const out = await trainTorchRun(run, { workspace: ws.path, owner: 'test', python: bad });
  assert.equal(out.state, 'failed');
  assert.match(out.reason!, /PyTorch exited with code 1: RuntimeError: boom from the test/);
  assert.equal(run.readStatus().state, 'failed');
  assert.match(readFileSync(join(run.dir, 'events.log'), 'utf8'), /Python's last output:\n[\s\S]*RuntimeError: boom from the test/);
});

test('CUDA out of memory: the reason names the batch size and suggests micro-batches; the traceback in events.log', { skip, timeout: 120_000 }, async () => {
  // an interpreter that probes as the real Python, then fails as a CUDA OOM does (no GPU here to fill)
  const oom = join(ws.path, 'oom-python');
  writeFileSync(oom, `#!/bin/sh\nif [ "$1" = "-c" ]; then exec ${PY} "$@"; fi\nexec ${PY} -c 'import sys; sys.stderr.write("Traceback (most recent call last):\\n  File x\\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\\n"); sys.exit(1)'\n`);
  chmodSync(oom, 0o755);
  const run = store.create(parseRunConfig({ ...CASES[0]![1], name: 'oom', backend: 'torch', torch: { device: 'cpu' } }), 'oom');
  const out = await trainTorchRun(run, { workspace: ws.path, owner: 'test', python: oom });
  assert.equal(out.state, 'failed');
  assert.match(out.reason!, /out of GPU memory \(CUDA out of memory\) at batch size 2: set microBatch to 1 \(the same batch of 2 in smaller pieces/);
  assert.equal(run.readStatus().reason, out.reason);
  assert.match(readFileSync(join(run.dir, 'events.log'), 'utf8'), /Python's last output:\n[\s\S]*OutOfMemoryError: CUDA out of memory/);
});

test('microBatch: PyTorch trains each batch in pieces to the same numbers as the whole batch', { skip, timeout: 120_000 }, async () => {
  const run = store.create(parseRunConfig({ ...CASES[0]![1], name: 'micro', microBatch: 1, backend: 'torch', torch: { device: 'cpu' } }), 'micro');
  const out = await trainTorchRun(run, { workspace: ws.path, owner: 'test' });
  assert.equal(out.state, 'done', out.reason);
  const whole = epochsOf(store.open('lino-darcy-torch').dir);
  const pieces = epochsOf(run.dir);
  assert.equal(pieces.length, 3);
  for (let i = 0; i < 3; i++) {
    assert.ok(close(pieces[i]!.train.loss, whole[i]!.train.loss, 1e-5), `epoch ${i + 1} train loss: micro-batches ${pieces[i]!.train.loss} vs whole ${whole[i]!.train.loss}`);
    assert.ok(close(pieces[i]!.val.relL2, whole[i]!.val.relL2, 1e-5), `epoch ${i + 1} val relL2: micro-batches ${pieces[i]!.val.relL2} vs whole ${whole[i]!.val.relL2}`);
  }
});

test('resume in both directions: engine epoch 1 then torch, torch stopped in epoch 2 then the engine; both equal the engine-only run', { skip, timeout: 300_000 }, async () => {
  const cfg = CASES[0]![1];
  const ref = epochsOf(store.open('lino-darcy-engine').dir);
  const a = store.create(parseRunConfig({ ...cfg, name: 'e-then-t' }), 'engine-then-torch');
  assert.equal((await trainRun(a, { workspace: ws.path, owner: 'test', maxEpochsThisCall: 1 })).state, 'stopped');
  const ta = await trainTorchRun(a, { workspace: ws.path, owner: 'test', device: 'cpu' });
  assert.equal(ta.state, 'done', ta.reason);
  const b = store.create(parseRunConfig({ ...cfg, name: 't-then-e', backend: 'torch', torch: { device: 'cpu' } }), 'torch-then-engine');
  // stopped after its first epoch by Python itself (--max-epochs): a stop sent on seeing the epoch record could come after a tiny run's end
  const tb = await trainTorchRun(b, { workspace: ws.path, owner: 'test', maxEpochsThisCall: 1 });
  assert.equal(tb.state, 'stopped', tb.reason);
  assert.equal(readCheckpointState(b.dir, 'last')!.epoch, 1);
  assert.equal(b.readStatus().state, 'stopped');
  const eb = await trainRun(b, { workspace: ws.path, owner: 'test' });
  assert.equal(eb.state, 'done', eb.reason);
  for (const run of [a, b]) {
    const got = epochsOf(run.dir);
    assert.deepEqual(got.map((r) => r.epoch), [1, 2, 3], run.id);
    got.forEach((r, i) => {
      assert.ok(close(r.train.loss, ref[i]!.train.loss, 1e-4), `${run.id} epoch ${i + 1} train loss ${r.train.loss} vs ${ref[i]!.train.loss}`);
      assert.ok(close(r.val.relL2, ref[i]!.val.relL2, 1e-4), `${run.id} epoch ${i + 1} val relL2 ${r.val.relL2} vs ${ref[i]!.val.relL2}`);
    });
  }
});

test('after training: evaluation on the torch run\'s weights gives the engine run\'s numbers (same weights up to float rounding)', { skip, timeout: 120_000 }, async () => {
  for (const kind of ['lino-darcy', 'fno-darcy', 'lino-navier-stokes-rollout']) {
    const [e, t] = await Promise.all([evaluateRun(store.open(`${kind}-engine`)), evaluateRun(store.open(`${kind}-torch`))]);
    const a = e.resolutions[0]!.metrics;
    const b = t.resolutions[0]!.metrics;
    assert.equal(t.epoch, e.epoch);
    assert.ok(close(b.relL2, a.relL2, 1e-4) && close(b.mse, a.mse, 1e-4), `${kind}: torch ${JSON.stringify(b)} vs engine ${JSON.stringify(a)}`);
  }
});

test('a run locked by another writer is refused before anything is written', { skip }, async () => {
  const run = store.create(parseRunConfig({ ...CASES[0]![1], name: 'locked', backend: 'torch', torch: { device: 'cpu' } }), 'locked');
  const held = acquireRunLock(run.id, run.dir, 'another test writer');
  try {
    await assert.rejects(trainTorchRun(run, { workspace: ws.path, owner: 'test' }), (e: unknown) => e instanceof RunLockedError && /being trained by another writer/.test((e as Error).message));
    assert.equal(existsSync(join(run.dir, 'torch')), false);
  } finally {
    held.release();
  }
});
