// Run folders: exact resume, non-finite stop, torn metrics, interrupted status, checkpoint swap
// recovery, memory refusal. Real files in a temporary workspace, cpu backend.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { RunStore } from '../../../main/runs/run-store';
import { checkpointDir, loadCheckpoint, readCheckpointState } from '../../../main/runs/checkpoint';
import { readSafetensorsFile } from '../../../main/runs/safetensors';
import { trainRun } from '../../../main/train/runner';
import { planMemory } from '../../../main/train/memory';
import { evaluateRun } from '../../../main/train/evaluate-run';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-runs-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

const config = (over: Record<string, unknown> = {}) => ({
  name: 'tiny',
  model: { width: 6, depth: 1 },
  data: { kind: 'synthetic', grid: [6, 6], train: 6, val: 3 },
  epochs: 4,
  batchSize: 2,
  optimizer: { lr: 3e-3 },
  ...over,
});

const lossSeq = (id: string) =>
  store.open(id).readMetrics().records.map((r) => (r.type === 'step' ? `s${r.step}:${r.loss}` : `e${r.epoch}:${(r as { val: { relL2: number } }).val.relL2}`));

test('resume from checkpoints/last continues the exact loss sequence (bit for bit, cpu)', async () => {
  const full = store.create(config(), 'full');
  const r1 = await trainRun(full);
  assert.equal(r1.state, 'done');
  const split = store.create(config(), 'split');
  const a = await trainRun(split, { maxEpochsThisCall: 2 });
  assert.equal(a.state, 'stopped');
  assert.equal(readCheckpointState(split.dir, 'last')!.epoch, 2);
  // A torn record at the end, as a crash mid-append leaves it: ignored on read, dropped on resume.
  appendFileSync(split.metricsPath, '{"type":"step","epoch":3,"step":7,"lo');
  assert.equal(split.readMetrics().skipped, 1);
  const b = await trainRun(split);
  assert.equal(b.state, 'done');
  const want = lossSeq('full');
  assert.equal(want.length, 4 * 3 + 4);
  assert.deepEqual(lossSeq('split'), want);
  const wa = readSafetensorsFile(join(checkpointDir(full.dir, 'last')!, 'weights.safetensors'));
  const wb = readSafetensorsFile(join(checkpointDir(split.dir, 'last')!, 'weights.safetensors'));
  for (const [k, t] of wa.tensors) assert.deepEqual(wb.tensors.get(k)!.bytes, t.bytes, `final weights ${k}`);
  assert.ok(existsSync(join(split.dir, 'events.log')));
  assert.match(readFileSync(join(split.dir, 'events.log'), 'utf8'), /resuming from checkpoints\/last: epoch 2/);
  const sum = store.list().find((r) => r.id === 'split')!;
  assert.equal(sum.state, 'done');
  assert.equal(sum.epochsDone, 4);
  // Weights use the release's names; best exists.
  assert.ok(wa.tensors.has('lifting.linear.weight') && wa.tensors.has('blocks.0.gate.0.weight'));
  assert.ok(loadCheckpoint(full.dir, 'best'));
});

test('non-finite loss stops the run with reason and step; the last good checkpoint stays', async () => {
  // Epoch 1 trains at lr 3e-3; from epoch 2 StepLR multiplies the rate by 1e12.
  const h = store.create(config({ epochs: 6, schedule: { stepSize: 1, gamma: 1e12 } }), 'nan');
  const r = await trainRun(h);
  assert.equal(r.state, 'failed');
  const st = h.readStatus();
  assert.equal(st.state, 'failed');
  assert.match(st.reason!, /non-finite (loss|gradient) .* at epoch \d+, step \d+/);
  assert.ok(st.step! > 3, `failed at step ${st.step}`);
  const ck = loadCheckpoint(h.dir, 'last')!;
  assert.ok(ck.state.epoch >= 1 && ck.state.epoch < st.epoch!, `last good epoch ${ck.state.epoch}, failure in epoch ${st.epoch}`);
  for (const [k, e] of ck.weights) assert.ok(e.data.every(Number.isFinite), `checkpoint weight ${k} is finite`);
});

test('a run whose trainer process is gone lists as interrupted', () => {
  const h = store.create(config(), 'ghost');
  h.writeStatus({ state: 'running', pid: 2 ** 22 + 12345, epoch: 1 });
  assert.equal(h.readStatus().state, 'interrupted');
  h.writeStatus({ state: 'running', pid: process.pid, epoch: 1 });
  assert.equal(h.readStatus(() => false).state, 'interrupted', 'this process, but not training it');
  assert.equal(h.readStatus(() => true).state, 'running');
  writeFileSync(h.statusPath, '{"state":"runn');
  assert.equal(h.readStatus().state, 'interrupted', 'a damaged status file still opens');
});

test('an interrupted checkpoint swap is repaired on read', () => {
  const src = store.open('full');
  const dir = join(src.dir, 'checkpoints');
  // Crash after renaming last -> .last.old, before .last.tmp -> last.
  cpSync(join(dir, 'last'), join(dir, '.last.tmp'), { recursive: true });
  renameSync(join(dir, 'last'), join(dir, '.last.old'));
  assert.equal(checkpointDir(src.dir, 'last'), join(dir, 'last'));
  assert.ok(!existsSync(join(dir, '.last.old')) && !existsSync(join(dir, '.last.tmp')));
  // Crash while writing the temporary folder: the old checkpoint is used.
  mkdirSync(join(dir, '.last.tmp'));
  writeFileSync(join(dir, '.last.tmp', 'weights.safetensors'), 'partial');
  assert.equal(readCheckpointState(src.dir, 'last')!.epoch, 4);
  // A reader (runs.list while the trainer writes) leaves the temporary folder alone ...
  assert.ok(existsSync(join(dir, '.last.tmp', 'weights.safetensors')), 'readCheckpointState does not delete a checkpoint being written');
  // ... the trainer's own repair (before it writes) removes it.
  assert.equal(checkpointDir(src.dir, 'last'), join(dir, 'last'));
  assert.ok(!existsSync(join(dir, '.last.tmp')));
});

test('a configuration that cannot fit the wasm cap is refused before starting, with the estimate', async () => {
  const plan = planMemory({ width: 128, depth: 8, scattering: 'full', components: ['scattering'], inChannels: 3, outChannels: 1, params: 1e6, grid: [85, 85] }, 4, 'wasm');
  assert.equal(plan.fits, false);
  assert.match(plan.message, /does not fit.*GiB.*wasm/);
  const ok = planMemory({ width: 128, depth: 8, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], inChannels: 12, outChannels: 1, params: 1e6, grid: [64, 64], rollout: { tOut: 10, checkpointing: true } }, 4, 'wasm');
  const no = planMemory({ width: 128, depth: 8, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], inChannels: 12, outChannels: 1, params: 1e6, grid: [64, 64], rollout: { tOut: 10, checkpointing: false } }, 4, 'wasm');
  assert.ok(ok.perSampleBytes * 5 < no.perSampleBytes, 'checkpointing bounds the rollout memory');
  assert.ok(ok.microBatch < 4 || ok.fits, 'auto micro-batch shrinks to fit');
  // The paper's Navier-Stokes model (64^2, M=128, L=8) fits the wasm cap one sample at a time;
  // block checkpointing lets the whole batch of 4 fit.
  const ns = { width: 128, depth: 8, scattering: 'efficient' as const, components: ['reflection', 'refraction', 'scattering'], inChannels: 12, outChannels: 1, params: 1.3e6, grid: [64, 64], rollout: { tOut: 10, checkpointing: true } };
  const nsPlain = planMemory(ns, 4, 'wasm');
  assert.ok(nsPlain.microBatch < 4, nsPlain.message);
  const nsBlocks = planMemory({ ...ns, checkpointBlocks: true }, 4, 'wasm');
  assert.ok(nsBlocks.fits && nsBlocks.microBatch > nsPlain.microBatch, nsBlocks.message);
  const h = store.create(config({ checkpointBlocks: false, model: { width: 512, depth: 16, scattering: 'full' }, data: { kind: 'synthetic', grid: [96, 96], train: 2, val: 1 } }), 'huge');
  const r = await trainRun(h, { onPlan: () => {} });
  if (tf.getBackend() === 'cpu' && planMemory({ width: 512, depth: 16, scattering: 'full', components: ['scattering'], inChannels: 3, outChannels: 1, params: 0, grid: [96, 96] }, 1, 'cpu').fits) {
    return; // a machine with that much memory would train it: nothing to refuse here
  }
  assert.equal(r.state, 'failed');
  assert.match(h.readStatus().reason!, /^memory: does not fit/);
  assert.equal(h.readMetrics().records.length, 0, 'nothing trained');
});

test('a stop while the data are being prepared ends the run stopped (resumable), not failed', async () => {
  const run = store.create(config({ data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 4, train: 2, val: 2 } }), 'stop-early');
  const out = await trainRun(run, { workspace: ws.path, signal: AbortSignal.abort() });
  assert.equal(out.state, 'stopped', out.reason);
  assert.equal(run.readStatus().state, 'stopped');
});

test('evaluation of the best checkpoint reproduces the validation of its epoch; other resolutions evaluate too', async () => {
  const h = store.open('full');
  const epochs = h.readMetrics().records.filter((r) => r.type === 'epoch') as unknown as { epoch: number; val: { relL2: number; relL2Decoded: number; mse: number } }[];
  const best = epochs.reduce((a, b) => (b.val.relL2 < a.val.relL2 ? b : a));
  const ev = await evaluateRun(h, { checkpoint: 'best', resolutions: [9] });
  assert.equal(ev.epoch, best.epoch);
  const r0 = ev.resolutions[0]!;
  assert.deepEqual(r0.grid, [6, 6]);
  assert.ok(Math.abs(r0.metrics.relL2 - best.val.relL2) < 1e-6 * best.val.relL2, `${r0.metrics.relL2} vs ${best.val.relL2}`);
  assert.ok(Math.abs(r0.metrics.relL2Decoded - best.val.relL2Decoded) < 1e-6 * best.val.relL2Decoded);
  assert.equal(r0.perSample.length, 3);
  assert.deepEqual([...r0.order].sort(), [0, 1, 2]);
  assert.deepEqual(ev.resolutions[1]!.grid, [9, 9]);
  assert.ok(Number.isFinite(ev.resolutions[1]!.metrics.relL2));
});

test('resuming a checkpoint saved on another backend says so in the log', async () => {
  const h = store.create(config({ epochs: 3 }), 'otherbackend');
  await trainRun(h, { maxEpochsThisCall: 1 });
  const statePath = join(checkpointDir(h.dir, 'last')!, 'state.json');
  const st = JSON.parse(readFileSync(statePath, 'utf8'));
  writeFileSync(statePath, JSON.stringify({ ...st, backend: 'wasm' }));
  const logs: string[] = [];
  assert.equal((await trainRun(h, { onLog: (m) => logs.push(m) })).state, 'done');
  assert.ok(logs.some((m) => /saved on backend 'wasm', now 'cpu'/.test(m)), logs.join('\n'));
});

test('the runner plans with the same activation estimate the Model view shows (one memory model per kind)', async () => {
  const { modelEntry } = await import('../../../main/model/registry');
  const cfg = { width: 32, depth: 4, scattering: 'full' as const, components: ['reflection', 'refraction', 'scattering'], inChannels: 3, outChannels: 1, dims: 2 as const };
  for (const backend of ['wasm', 'cpu']) {
    const plan = planMemory({ ...cfg, params: 1e5, grid: [32, 32], modelConfig: cfg }, 1, backend);
    assert.equal(plan.perSampleBytes, modelEntry('lino').estimate(cfg, [32, 32], 1, backend).activationBytes, backend);
  }
});
