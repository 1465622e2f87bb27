// What keeps a run folder honest: one writer per run (its lock, stale locks taken over),
// memory refused from the configuration before anything is allocated, a stop during the data's
// preparation, checkpoints validated (state.json fields, sha256 of each file, finite weights),
// a deleted checkpoints/last refused, and configuration errors that name the field and the value.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { RunStore } from '../../../main/runs/run-store';
import { loadCheckpoint, readCheckpointState } from '../../../main/runs/checkpoint';
import { acquireRunLock, LOCK_FILE, RunLockedError } from '../../../main/runs/run-lock';
import { parseRunConfig, trainRun } from '../../../main/train/runner';
import { parseParams } from '../../../main/api/contract';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-run-safety-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

const config = (over: Record<string, unknown> = {}) => ({
  name: 'safety',
  model: { width: 6, depth: 1 },
  data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 },
  epochs: 3,
  batchSize: 2,
  optimizer: { lr: 3e-3 },
  ...over,
});
/** A pid above Linux's pid_max (2^22): no process has it. */
const DEAD_PID = 2 ** 22 + 12345;
const metricsKeys = (id: string) => store.open(id).readMetrics().records.map((r) => `${r.type}${r.type === 'step' ? r.step : r.epoch}`);

test('a run held by a live writer is refused naming the run and its pid; nothing in the folder changes', async () => {
  const h = store.create(config(), 'held');
  // The test runner's parent is alive on this host: a writer we cannot be.
  writeFileSync(join(h.dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: new Date().toISOString(), owner: 'lino train', token: 'other' }));
  const before = readFileSync(h.statusPath, 'utf8');
  await assert.rejects(trainRun(h), (e: Error) => {
    assert.ok(e instanceof RunLockedError);
    assert.match(e.message, new RegExp(`run 'held' is being trained by another writer: held by lino train, process ${process.ppid}`));
    return true;
  });
  assert.equal(readFileSync(h.statusPath, 'utf8'), before, 'status untouched');
  assert.equal(existsSync(h.metricsPath), false, 'no metrics written');
  assert.throws(() => store.delete('held'), /being trained by another writer/, 'not deletable while held');
  // The same thread holding it refuses a second trainer too.
  rmSync(join(h.dir, LOCK_FILE));
  const mine = acquireRunLock('held', h.dir, 'test');
  await assert.rejects(trainRun(h), /held by this process/);
  mine.release();
  assert.equal(existsSync(join(h.dir, LOCK_FILE)), false, 'released');
  assert.equal((await trainRun(h)).state, 'done');
  assert.equal(existsSync(join(h.dir, LOCK_FILE)), false, 'released at the end');
});

test('a stale lock (its process is gone) is taken over, saying so in events.log', async () => {
  const h = store.create(config({ epochs: 2 }), 'stale');
  writeFileSync(join(h.dir, LOCK_FILE), JSON.stringify({ pid: DEAD_PID, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', owner: 'lino train', token: 'dead' }));
  const logs: string[] = [];
  const out = await trainRun(h, { onLog: (m) => logs.push(m) });
  assert.equal(out.state, 'done');
  assert.match(readFileSync(h.eventsPath, 'utf8'), new RegExp(`took over the run lock of run 'stale': its process ${DEAD_PID} \\(lino train, since 2026-01-01T00:00:00.000Z\\) is gone`));
  assert.ok(logs.some((m) => m.startsWith('took over')));
  assert.deepEqual(metricsKeys('stale'), ['step1', 'step2', 'epoch1', 'step3', 'step4', 'epoch2']);
  // A damaged lock file old enough to be nobody's is taken over too.
  const g = store.create(config({ epochs: 1 }), 'damaged-lock');
  writeFileSync(join(g.dir, LOCK_FILE), '{"pid":');
  const { utimesSync } = await import('node:fs');
  utimesSync(join(g.dir, LOCK_FILE), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  assert.equal((await trainRun(g)).state, 'done');
  assert.match(readFileSync(g.eventsPath, 'utf8'), /took over the run lock of run 'damaged-lock': it is damaged/);
  // Another host's lock cannot be checked from here: refused, with what to do.
  const r = store.create(config({ epochs: 1 }), 'remote');
  writeFileSync(join(r.dir, LOCK_FILE), JSON.stringify({ pid: 4242, host: 'elsewhere', startedAt: 'x', owner: 'the engine', token: 't' }));
  await assert.rejects(trainRun(r), /process 4242 on host 'elsewhere'.*delete .*train\.lock/);
});

test('a model too large for memory is refused from its configuration at once, with the numbers', async () => {
  const h = store.create(config({ model: { width: 4096, depth: 64 } }), 'wide');
  const t0 = performance.now();
  const out = await trainRun(h);
  const ms = performance.now() - t0;
  assert.equal(out.state, 'failed');
  assert.match(out.reason!, /does not fit: the model has [\d,]+ parameters \(width 4096, depth 64\); .* need [\d.]+ GiB, the cpu backend allows [\d.]+ GiB\. Lower model\.width or model\.depth/);
  assert.ok(ms < 1000, `refused in ${ms.toFixed(0)} ms`);
  assert.match(h.readStatus().reason!, /^memory: does not fit/);
  assert.equal(h.readMetrics().records.length, 0);
  assert.equal('resolvedData' in h.readConfig(), false, 'the data were never prepared');
});

test('synthetic data too large for memory are refused before one sample is made, naming data.train', async () => {
  const h = store.create(config({ data: { kind: 'synthetic', grid: [1024, 1024], train: 1e9, val: 1 } }), 'huge-data');
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const out = await trainRun(h);
  assert.equal(out.state, 'failed');
  assert.match(out.reason!, /does not fit: the data need [\d.]+ GiB \(1,000,000,001 samples x 1024x1024 points x 4 channels x 4 bytes x 2 copies while they are made\), this machine allows [\d.]+ GiB\. Lower data\.train/);
  assert.ok(performance.now() - t0 < 1000);
  assert.ok(process.memoryUsage().rss - rss0 < 200 * 1024 ** 2, 'nothing large was allocated');
  // A generated benchmark is sized from its preset and overrides before the generator starts.
  const g = store.create(config({ data: { kind: 'generate', benchmark: 'darcy', preset: 'quick', samples: 1_000_000, generateResolution: 421 } }), 'huge-generated');
  const out2 = await trainRun(g, { workspace: ws.path });
  assert.equal(out2.state, 'failed');
  assert.match(out2.reason!, /does not fit: the generated data need [\d.]+ GiB \(1,000,000 samples x 421x421 x 2 fields x 4 bytes x 2 copies \(generated, prepared\)\), this machine allows [\d.]+ GiB\. Lower data\.samples/);
});

test('a stop during the preparation of synthetic data ends it at once, stopped and resumable', async () => {
  // ~4000 samples of 128x128: tens of seconds to generate; the stop lands after 300 ms.
  const h = store.create(config({ data: { kind: 'synthetic', grid: [128, 128], train: 4000, val: 2 } }), 'stop-prep');
  const controller = new AbortController();
  const t0 = performance.now();
  setTimeout(() => controller.abort(), 300);
  const out = await trainRun(h, { signal: controller.signal });
  const ms = performance.now() - t0;
  assert.equal(out.state, 'stopped');
  assert.ok(ms < 2500, `stopped after ${ms.toFixed(0)} ms`);
  assert.equal(h.readStatus().state, 'stopped');
  assert.equal(existsSync(join(h.dir, LOCK_FILE)), false);
});

test('state.json on resume: an epoch past the configuration, a truncated file and a wrong type name the file and the field', async () => {
  const h = store.create(config({ epochs: 4 }), 'badstate');
  await trainRun(h, { maxEpochsThisCall: 1 });
  const statePath = join(h.dir, 'checkpoints/last/state.json');
  const good = readFileSync(statePath, 'utf8');
  writeFileSync(statePath, JSON.stringify({ ...JSON.parse(good), epoch: 1e9 }));
  await assert.rejects(trainRun(h), new RegExp(`${statePath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: field 'epoch': expected an integer from 0 to 4 \\(the run's epochs in config.json\\), got 1000000000`));
  assert.equal(h.readStatus().state, 'failed');
  writeFileSync(statePath, JSON.stringify({ ...JSON.parse(good), globalStep: 2.5 }));
  await assert.rejects(trainRun(h), /state\.json: field 'globalStep': expected an integer, got 2\.5/);
  writeFileSync(statePath, good.slice(0, good.length >> 1));
  await assert.rejects(trainRun(h), /checkpoints\/last\/state\.json: not valid JSON .*damaged \(truncated\?\)/);
  assert.equal(existsSync(join(h.dir, LOCK_FILE)), false, 'a failure releases the lock');
  writeFileSync(statePath, good);
  assert.equal((await trainRun(h)).state, 'done');
});

test('checkpoint files are checksummed: a changed weights file is refused, naming it', async () => {
  const h = store.create(config({ epochs: 3 }), 'sums');
  await trainRun(h, { maxEpochsThisCall: 1 });
  const st = readCheckpointState(h.dir, 'last')!;
  assert.match(st.files!['weights.safetensors']!, /^[0-9a-f]{64}$/);
  assert.match(st.files!['optimizer.safetensors']!, /^[0-9a-f]{64}$/);
  const w = join(h.dir, 'checkpoints/last/weights.safetensors');
  const bytes = readFileSync(w);
  bytes[bytes.length - 1] ^= 1; // one bit of the last float
  writeFileSync(w, bytes);
  assert.throws(() => loadCheckpoint(h.dir, 'last'), /checkpoints\/last\/weights\.safetensors: sha256 .* does not match the .* recorded in .*state\.json/);
  await assert.rejects(trainRun(h), /weights\.safetensors: sha256/);
});

test('non-finite weights are never saved as the last good state', async () => {
  // lr 1e39 is Infinity in float32: the first update makes the weights infinite while its loss
  // and gradient were finite; one step per epoch, so epoch 1 ends with them.
  const h = store.create(config({ data: { kind: 'synthetic', grid: [6, 6], train: 2, val: 2 }, optimizer: { lr: 1e39 } }), 'infweights');
  const out = await trainRun(h);
  assert.equal(out.state, 'failed');
  assert.match(out.reason!, /non-finite weights \(.* holds (-?Infinity|NaN)\) at the end of epoch 1; not saved as a checkpoint/);
  assert.match(out.reason!, /no epoch was saved yet/);
  assert.equal(readCheckpointState(h.dir, 'last'), null, 'no checkpoint holds them');
  assert.equal(existsSync(join(h.dir, LOCK_FILE)), false, 'released on failure');
  assert.equal(readCheckpointState(h.dir, 'best'), null);
  // Resuming it starts over (nothing was saved), not "checkpoints/last is missing".
  assert.match((await trainRun(h)).reason!, /non-finite weights/);
});

test('a deleted checkpoints/last is refused, not restarted from epoch 1; a run without epochs starts over', async () => {
  const h = store.create(config({ epochs: 4 }), 'nolast');
  await trainRun(h, { maxEpochsThisCall: 2 });
  const before = readFileSync(h.metricsPath, 'utf8');
  rmSync(join(h.dir, 'checkpoints/last'), { recursive: true });
  await assert.rejects(trainRun(h), /checkpoints\/last is missing, but the run has 2 epochs recorded .*Copy .*checkpoints\/best \(epoch \d\) to .*checkpoints\/last to resume from there, or start a new run/);
  assert.equal(readFileSync(h.metricsPath, 'utf8'), before, 'the metrics are kept');
  // Following the advice resumes from best.
  const best = readCheckpointState(h.dir, 'best')!;
  cpSync(join(h.dir, 'checkpoints/best'), join(h.dir, 'checkpoints/last'), { recursive: true });
  const out = await trainRun(h);
  assert.equal(out.state, 'done');
  assert.deepEqual(metricsKeys('nolast').filter((k) => k.startsWith('epoch')), ['epoch1', 'epoch2', 'epoch3', 'epoch4'], `resumed from epoch ${best.epoch}, metrics past it dropped`);
  // A run that failed in its first epoch (status.json names that epoch, no epoch record) starts over.
  const f = store.create(config({ epochs: 1 }), 'failedfirst');
  f.writeStatus({ state: 'failed', pid: null, reason: 'non-finite loss (NaN) at epoch 1, step 2', epoch: 1, step: 2 });
  assert.equal((await trainRun(f)).state, 'done');
  // Killed during its first epoch (steps recorded, no epoch): it simply starts over.
  const k = store.create(config({ epochs: 1 }), 'firstepoch');
  k.appendMetrics([{ type: 'step', epoch: 1, step: 1, loss: 1 }]);
  assert.equal((await trainRun(k)).state, 'done');
  assert.deepEqual(metricsKeys('firstepoch'), ['step1', 'step2', 'epoch1']);
});

test('configuration errors name the field, what was expected and what was given', () => {
  const data = { kind: 'synthetic', grid: [8], train: 2, val: 1 };
  assert.throws(() => parseRunConfig({ data, epochs: null }, 'run.json'), /^Error: run\.json: field 'epochs': expected a number, got null$/);
  assert.throws(() => parseRunConfig({ data, epochs: 1.5 }), /field 'epochs': expected an integer, got 1\.5/);
  assert.throws(() => parseRunConfig({ data, epochs: 0 }), /field 'epochs': expected at least 1, got 0/);
  assert.throws(() => parseRunConfig({ data, microBatch: null }), /field 'microBatch': expected a number or "auto", got null/);
  assert.throws(() => parseRunConfig({ data: { ...data, grid: [] } }), /field 'data\.grid': expected at least 1 entries, got 0 entries/);
  assert.throws(() => parseRunConfig({ data, model: { scattering: 'x' } }), /field 'model\.scattering': expected one of "efficient", "full", "standard", got "x"/);
  assert.throws(() => parseRunConfig({ data, foo: 1 }), /field '\(root\)': unknown field 'foo'/);
  // Through the API the union of train.start's shapes no longer hides the field.
  assert.throws(() => parseParams('train.start', { config: { data, epochs: null } }), /train\.start: invalid parameter 'config\.epochs': expected a number, got null/);
});
