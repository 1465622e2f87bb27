// Hardening III, repro 2: two processes on one sweep. The runs' locks held, but state.json was
// last-writer-wins: a trial whose run finished with 25 epochs was recorded failed with 0 epochs
// ("being trained by another writer") and no later run of the sweep looked at it again. Now a sweep
// has a lock of its own (the run lock's rules: a second process is refused naming the holder, before
// anything is written), and under it each trial is reconciled with its run's status.json and
// metrics.jsonl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openOrCreateSweep } from '../../../main/sweep/sweep-state';
import { SweepConfig } from '../../../main/sweep/sweep-config';
import { lockSweep, SweepRunner, SWEEP_LOCK, type TrialExecutor } from '../../../main/sweep/sweep-runner';
import { RunLockedError } from '../../../main/runs/run-lock';
import { RunStore } from '../../../main/runs/run-store';
import { tempDir } from '../../helpers/env';

const never: TrialExecutor = async () => {
  throw new Error('no trial may train in this test');
};

function setUp(root: string, epochs = 25) {
  const ws = join(root, 'ws');
  const config = SweepConfig.parse({ name: 'two', base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs }, axes: [{ path: 'model.width', values: [4] }] });
  const { id } = openOrCreateSweep(ws, config);
  const statePath = join(ws, 'sweeps', id, 'state.json');
  return { ws, id, statePath, runId: `${id}-c0-s42` };
}

/** The state the losing process wrote: its trial failed at 0 epochs, refused by the other's run lock. */
function lostState(id: string, runId: string) {
  return {
    version: 1, id, name: 'two', createdAt: new Date().toISOString(), status: 'failed', wallSeconds: 1,
    configs: [{ index: 0, params: { 'model.width': 4 } }],
    trials: [{ runId, config: 0, seedIndex: 0, seed: 42, state: 'failed', reason: `run '${runId}' is being trained by another writer: held by lino sweep, process 1234`, rungs: [], rungHistory: [], best: null, epochs: 0, wallSeconds: 0 }],
  };
}

/** The run the winning process trained: `epochs` epoch records, and its status. */
function trainedRun(ws: string, runId: string, epochs: number, state: 'done' | 'stopped') {
  const run = new RunStore(join(ws, 'runs')).create({ data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 25 }, runId);
  run.appendMetrics(Array.from({ length: epochs }, (_, i) => ({ type: 'epoch', epoch: i + 1, train: { loss: 1 }, val: { relL2: 1 / (i + 2) } })), true);
  run.writeStatus({ state, pid: null, epoch: epochs });
  return run;
}

test('a second process on a sweep is refused naming the holder; state.json is not written', async () => {
  const d = tempDir('lino-sweep-lock-');
  try {
    const s = setUp(d.path);
    // The test runner's parent is alive on this host: another process than ours.
    writeFileSync(join(s.ws, 'sweeps', s.id, SWEEP_LOCK), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', owner: 'lino sweep', token: 'other' }));
    const before = readFileSync(s.statePath, 'utf8');
    const runner = new SweepRunner(s.ws, s.id, never, { owner: 'lino sweep' });
    await assert.rejects(runner.run(), (e: Error) => {
      assert.ok(e instanceof RunLockedError);
      assert.match(e.message, new RegExp(`sweep '${s.id}' is being run by another process: held by lino sweep, process ${process.ppid}, since 2026-01-01T00:00:00.000Z`));
      return true;
    });
    assert.throws(() => runner.planAll(), /is being run by another process/);
    assert.equal(readFileSync(s.statePath, 'utf8'), before, 'state.json untouched');
    assert.equal(existsSync(join(s.ws, 'runs', s.runId)), false, 'no run created');
  } finally {
    d.cleanup();
  }
});

test('one process holds a sweep at a time, in the same process too; released at the end of run()', async () => {
  const d = tempDir('lino-sweep-lock-');
  try {
    const s = setUp(d.path, 1);
    const held = lockSweep(s.ws, s.id, 'the engine');
    await assert.rejects(new SweepRunner(s.ws, s.id, never).run(), /is being run by another process: held by this process/);
    held.release();
    let trained = 0;
    const end = await new SweepRunner(s.ws, s.id, async (run) => {
      trained++;
      assert.ok(existsSync(join(s.ws, 'sweeps', s.id, SWEEP_LOCK)), 'held while trials run');
      run.appendMetrics([{ type: 'epoch', epoch: 1, val: { relL2: 0.5 } }]);
      run.writeStatus({ state: 'done', pid: null, epoch: 1 });
      return { state: 'done' };
    }).run();
    assert.equal(trained, 1);
    assert.equal(end.status, 'done');
    assert.equal(existsSync(join(s.ws, 'sweeps', s.id, SWEEP_LOCK)), false, 'released');
  } finally {
    d.cleanup();
  }
});

test("a trial recorded failed with 0 epochs whose run finished 25 epochs is recorded done with 25 epochs, without training", async () => {
  const d = tempDir('lino-sweep-lock-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(lostState(s.id, s.runId)));
    trainedRun(s.ws, s.runId, 25, 'done');
    const end = await new SweepRunner(s.ws, s.id, never).run();
    assert.equal(end.status, 'done');
    const t = end.trials[0]!;
    assert.equal(t.state, 'done');
    assert.equal(t.epochs, 25);
    assert.equal(t.best, 1 / 26);
    assert.equal(t.reason, undefined);
    assert.deepEqual(JSON.parse(readFileSync(s.statePath, 'utf8')).trials[0].epochs, 25, 'saved');
  } finally {
    d.cleanup();
  }
});

test('a trial recorded failed whose run did not fail (the other process was stopped at epoch 3) is resumed, once', async () => {
  const d = tempDir('lino-sweep-lock-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(lostState(s.id, s.runId)));
    trainedRun(s.ws, s.runId, 3, 'stopped');
    let resumed = 0;
    const end = await new SweepRunner(s.ws, s.id, async (run) => {
      resumed++;
      run.appendMetrics(Array.from({ length: 22 }, (_, i) => ({ type: 'epoch', epoch: i + 4, val: { relL2: 0.01 } })));
      run.writeStatus({ state: 'done', pid: null, epoch: 25 });
      return { state: 'done' };
    }).run();
    assert.equal(resumed, 1);
    assert.equal(end.trials[0]!.state, 'done');
    assert.equal(end.trials[0]!.epochs, 25);
  } finally {
    d.cleanup();
  }
});

test('a trial whose run really failed stays failed with its run\'s epochs', async () => {
  const d = tempDir('lino-sweep-lock-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(lostState(s.id, s.runId)));
    const run = trainedRun(s.ws, s.runId, 2, 'stopped');
    run.writeStatus({ state: 'failed', pid: null, reason: 'non-finite loss', epoch: 2 });
    const end = await new SweepRunner(s.ws, s.id, never).run();
    assert.equal(end.trials[0]!.state, 'failed');
    assert.equal(end.trials[0]!.epochs, 2);
  } finally {
    d.cleanup();
  }
});
