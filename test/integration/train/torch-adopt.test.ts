// A PyTorch run an earlier engine started (main/train/torch-adopt.ts), found by the next engine
// after its Python ended while no engine was up: its own end stands; one left running ends failed
// with its traceback's tail when its output ends in one, else interrupted; the lock handed to
// Python is removed; a run whose lock or process record does not name a PyTorch process of this
// host is not adopted. (The live case, a Python still training, is in engine-torch.test.ts.)
// Here, not in test/unit: it names Python interpreters' paths, which the unit-test guard reads as starting Python; it starts none.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RunStore, type RunHandle } from '../../../main/runs/run-store';
import { LOCK_FILE } from '../../../main/runs/run-lock';
import { adoptTorchRun, torchRunToAdopt, torchRunsToAdopt, writeTorchProcessRecord } from '../../../main/train/torch-adopt';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-torch-adopt-');
after(() => ws.cleanup());
const store = new RunStore(join(ws.path, 'runs'));
// a pid no process has here (Linux's pid_max is at most 2^22)
const GONE = 2 ** 22 + 12345;

/** A run as an engine leaves it when it goes away while Python trains: status running under Python's pid, the lock handed to it. */
function leftRunning(id: string, pid: number, output: string, state: 'running' | 'paused' | 'done' = 'running'): RunHandle {
  const run = store.create({ name: id, epochs: 10, batchSize: 2, backend: 'torch' }, id);
  mkdirSync(join(run.dir, 'torch'), { recursive: true });
  writeFileSync(join(run.dir, 'torch', 'python.log'), `earlier process's output\n${output}`);
  writeTorchProcessRecord(run, { pid, host: hostname(), python: '/usr/bin/python3', device: 'cpu', gpus: 1, batchSize: 2, epochs: 10, stepsPerEpoch: 4, outStart: 'earlier process\'s output\n'.length, startedAt: new Date().toISOString() });
  writeFileSync(join(run.dir, LOCK_FILE), JSON.stringify({ pid, host: hostname(), startedAt: '', owner: 'PyTorch (/usr/bin/python3, started by the engine)', token: 'abc' }));
  run.writeStatus({ state, pid, backend: 'torch-cpu', epoch: 3, step: 12 });
  return run;
}

test('ended with a traceback while no engine was up: failed, its tail in the reason and events.log, the lock removed', async () => {
  const run = leftRunning('tb', GONE, 'Traceback (most recent call last):\n  File "train.py", line 1\nRuntimeError: boom while no engine watched\n');
  assert.deepEqual(torchRunToAdopt(run)?.state, 'ended');
  const out = await adoptTorchRun(run);
  assert.equal(out.state, 'failed');
  assert.equal(out.reason, 'PyTorch exited with an unknown code (started by an earlier engine): RuntimeError: boom while no engine watched');
  assert.equal(run.readStatus().state, 'failed');
  assert.equal(run.readStatus().epoch, 3);
  const log = readFileSync(join(run.dir, 'events.log'), 'utf8');
  assert.match(log, /ended while no engine followed it/);
  assert.match(log, /Python's last output:\n[\s\S]*RuntimeError: boom while no engine watched/);
  assert.doesNotMatch(log, /earlier process's output/, 'only this process\'s output');
  assert.equal(existsSync(join(run.dir, LOCK_FILE)), false);
  assert.equal(torchRunToAdopt(run), null, 'finalized once');
});

test('ended without a traceback (killed): interrupted with its last checkpoint, resumable', async () => {
  const run = leftRunning('killed', GONE, 'training on torch-cpu (cpu)\n');
  const out = await adoptTorchRun(run);
  assert.equal(out.state, 'interrupted');
  assert.match(out.reason!, /ended without recording its end and without a traceback.*checkpoints\/last holds epoch 3: resume on either backend/);
  assert.equal(run.readStatus().state, 'interrupted');
  assert.equal(existsSync(join(run.dir, LOCK_FILE)), false);
});

test('ended done while no engine was up: done stands', async () => {
  const run = leftRunning('done', GONE, 'done\n', 'done');
  const out = await adoptTorchRun(run);
  assert.equal(out.state, 'done');
  assert.equal(run.readStatus().state, 'done');
});

test('not adopted: a lock of another owner or host, a record naming another pid, a damaged record', () => {
  const other = leftRunning('other-owner', GONE, '');
  writeFileSync(join(other.dir, LOCK_FILE), JSON.stringify({ pid: GONE, host: hostname(), startedAt: '', owner: 'lino train', token: 'x' }));
  assert.equal(torchRunToAdopt(other), null);
  const remote = leftRunning('other-host', GONE, '');
  writeFileSync(join(remote.dir, LOCK_FILE), JSON.stringify({ pid: GONE, host: `${hostname()}-elsewhere`, startedAt: '', owner: 'PyTorch (x)', token: 'x' }));
  assert.equal(torchRunToAdopt(remote), null);
  const mismatch = leftRunning('mismatch', GONE, '');
  writeFileSync(join(mismatch.dir, LOCK_FILE), JSON.stringify({ pid: GONE + 1, host: hostname(), startedAt: '', owner: 'PyTorch (x)', token: 'x' }));
  assert.equal(torchRunToAdopt(mismatch), null);
  const damaged = leftRunning('damaged', GONE, '');
  writeFileSync(join(damaged.dir, 'torch', 'process.json'), '{"pid": "1; rm -rf /"}');
  assert.equal(torchRunToAdopt(damaged), null);
  assert.deepEqual(torchRunsToAdopt(store).map((r) => r.run.id).filter((id) => ['other-owner', 'other-host', 'mismatch', 'damaged'].includes(id)), []);
});
