// Hardening III, repro 9: weak messages. A trial pointing at a missing configuration failed with
// "Cannot read properties of undefined (reading 'params')"; a state whose configurations are not the
// sweep's (another sweep's state, a hand edit, a 10 MB value) was taken as it was. Each names the
// file and the field now. (The collected trial folder that is a symbolic link, and --collect copying
// links: test/unit/sweep/sweep-collect.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openOrCreateSweep } from '../../../main/sweep/sweep-state';
import { SweepConfig } from '../../../main/sweep/sweep-config';
import { SweepRunner, type TrialExecutor } from '../../../main/sweep/sweep-runner';
import { tempDir } from '../../helpers/env';

const never: TrialExecutor = async () => {
  throw new Error('no trial may train in this test');
};

function setUp(root: string) {
  const ws = join(root, 'ws');
  const config = SweepConfig.parse({ name: 'msg', base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1 }, axes: [{ path: 'model.width', values: [4] }] });
  const { id } = openOrCreateSweep(ws, config);
  return { ws, id, statePath: join(ws, 'sweeps', id, 'state.json') };
}

const state = (id: string, params: Record<string, unknown>) => ({
  version: 1, id, name: 'msg', createdAt: new Date().toISOString(), status: 'running', wallSeconds: 0,
  configs: [{ index: 0, params }],
  trials: [{ runId: `${id}-c0-s42`, config: 0, seedIndex: 0, seed: 42, state: 'pending', rungs: [], rungHistory: [], best: null, epochs: 0, wallSeconds: 0 }],
});

test('a trial pointing at a configuration that does not exist names the file and the field, not "Cannot read properties of undefined"', async () => {
  const d = tempDir('lino-sweep-msg-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(state(s.id, { 'model.width': 4 })));
    const runner = new SweepRunner(s.ws, s.id, never);
    const release = runner.hold();
    runner.current.configs.length = 0; // past the load's own check (defence in depth)
    const end = await runner.run();
    release();
    assert.equal(end.status, 'failed');
    assert.equal(end.reason, `${s.statePath}: field 'trials.0.config': configuration 0 does not exist (the state lists 0)`);
  } finally {
    d.cleanup();
  }
});

test("a state whose configurations are not the sweep's, or hold a value no axis can have, is refused naming the file and the field", () => {
  const d = tempDir('lino-sweep-msg-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(state(s.id, { 'optimizer.lr': 0.1 })));
    assert.throws(() => new SweepRunner(s.ws, s.id, never), new RegExp(`^Error: ${s.statePath.replace(/[.]/g, '\\.')}: not a state of this sweep \\(field 'configs\\.0\\.params': expected the axes model\\.width of .*sweep\\.json, got optimizer\\.lr\\)$`));
    writeFileSync(s.statePath, JSON.stringify(state(s.id, { 'model.width': 'x'.repeat(10 * 2 ** 20) })));
    assert.throws(() => new SweepRunner(s.ws, s.id, never), /state\.json: not a sweep state \(field 'configs\.0\.params\.model\.width': expected at most 4096 characters, got 10485760 characters\)/);
    writeFileSync(s.statePath, JSON.stringify(state(s.id, { 'model.width': { nested: true } })));
    assert.throws(() => new SweepRunner(s.ws, s.id, never), /state\.json: not a sweep state \(field 'configs\.0\.params\.model\.width': /);
  } finally {
    d.cleanup();
  }
});
