// Hardening III, repro 1: a sweep's state.json (a file a workspace copied from a cluster or a
// colleague carries) named a trial's run id; where that folder had no config.json the runner
// deleted it recursively before checking the id: "../../victim-outside" removed a folder outside
// the workspace, "." and "" every run. Each id is refused now, naming the field, and nothing is
// deleted. A second pass edits the state past the schema (the runner's own check) too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openOrCreateSweep } from '../../../main/sweep/sweep-state';
import { SweepConfig } from '../../../main/sweep/sweep-config';
import { SweepRunner, type TrialExecutor } from '../../../main/sweep/sweep-runner';
import { RunStore } from '../../../main/runs/run-store';
import { tempDir } from '../../helpers/env';

const never: TrialExecutor = async () => {
  throw new Error('no trial may train in this test');
};

function setUp(root: string) {
  const ws = join(root, 'ws');
  const victim = join(root, 'victim-outside');
  mkdirSync(victim, { recursive: true });
  writeFileSync(join(victim, 'thesis.tex'), 'years of work');
  mkdirSync(join(ws, 'datasets', 'mine'), { recursive: true });
  writeFileSync(join(ws, 'datasets', 'mine', 'manifest.json'), '{}');
  const kept = new RunStore(join(ws, 'runs')).create({ name: 'an earlier run' });
  const config = SweepConfig.parse({ name: 'one', base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1 }, axes: [{ path: 'model.width', values: [4] }] });
  const { id } = openOrCreateSweep(ws, config);
  return { ws, victim, kept, id, statePath: join(ws, 'sweeps', id, 'state.json') };
}

function hostileState(id: string, runId: string) {
  return {
    version: 1, id, name: 'one', createdAt: new Date().toISOString(), status: 'running', wallSeconds: 0,
    configs: [{ index: 0, params: { 'model.width': 4 } }],
    trials: [{ runId, config: 0, seedIndex: 0, seed: 42, state: 'pending', rungs: [], rungHistory: [], best: null, epochs: 0, wallSeconds: 0 }],
  };
}

function intact(s: ReturnType<typeof setUp>) {
  assert.equal(readFileSync(join(s.victim, 'thesis.tex'), 'utf8'), 'years of work', 'the folder outside the workspace is kept');
  assert.ok(existsSync(join(s.ws, 'datasets', 'mine', 'manifest.json')), 'datasets/ is kept');
  assert.ok(existsSync(s.kept.configPath), 'the earlier run is kept');
  assert.deepEqual(readdirSync(join(s.ws, 'runs')).filter((n) => !n.startsWith('.')), [s.kept.id]);
}

for (const runId of ['../../victim-outside', '.', '', '../datasets']) {
  test(`a trial run id of ${JSON.stringify(runId)} in state.json is refused naming the field; nothing is deleted`, async () => {
    const d = tempDir('lino-sweep-rm-');
    try {
      const s = setUp(d.path);
      writeFileSync(s.statePath, JSON.stringify(hostileState(s.id, runId)));
      assert.throws(() => new SweepRunner(s.ws, s.id, never), (e: Error) => e.message.includes(s.statePath) && /field 'trials\.0\.runId': expected a run id/.test(e.message));
      intact(s);
    } finally {
      d.cleanup();
    }
  });
}

test('past the state schema, the runner checks the id itself before any disk operation (defence in depth)', async () => {
  const d = tempDir('lino-sweep-rm-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(hostileState(s.id, 'placeholder')));
    const runner = new SweepRunner(s.ws, s.id, never);
    const release = runner.hold(); // the state is read again under the sweep's lock: edit it after that
    // what a schema bug would let through: the id edited after the load
    (runner.current.trials[0] as { runId: string }).runId = '../../victim-outside';
    (runner as unknown as { state: unknown }).state = runner.current;
    const end = await runner.run();
    release();
    assert.equal(end.status, 'failed');
    assert.match(end.reason ?? '', /field 'trials\[0\]\.runId' must be one folder name/);
    intact(s);
  } finally {
    d.cleanup();
  }
});

test("a folder named like a trial's run but without config.json is refused, never removed", async () => {
  const d = tempDir('lino-sweep-rm-');
  try {
    const s = setUp(d.path);
    writeFileSync(s.statePath, JSON.stringify(hostileState(s.id, 'my-notes')));
    mkdirSync(join(s.ws, 'runs', 'my-notes'));
    writeFileSync(join(s.ws, 'runs', 'my-notes', 'notes.txt'), 'mine');
    const end = await new SweepRunner(s.ws, s.id, never).run();
    assert.equal(end.status, 'failed');
    assert.match(end.reason ?? '', /runs\/my-notes exists but is not a run \(no config\.json\); move it out of runs\//);
    assert.equal(readFileSync(join(s.ws, 'runs', 'my-notes', 'notes.txt'), 'utf8'), 'mine');
  } finally {
    d.cleanup();
  }
});

test('a state naming a configuration that does not exist, or non-finite numbers, is refused naming the field', () => {
  const d = tempDir('lino-sweep-rm-');
  try {
    const s = setUp(d.path);
    const st = hostileState(s.id, 'r-1');
    st.trials[0]!.config = 3;
    writeFileSync(s.statePath, JSON.stringify(st));
    assert.throws(() => new SweepRunner(s.ws, s.id, never), /field 'trials\.0\.config': configuration 3 does not exist/);
    writeFileSync(s.statePath, JSON.stringify(hostileState(s.id, 'r-1')).replace('"epochs":0', '"epochs":1e309'));
    assert.throws(() => new SweepRunner(s.ws, s.id, never), /field 'trials\.0\.epochs'/);
    writeFileSync(s.statePath, JSON.stringify(hostileState(s.id, 'r-1')).replace('"best":null', '"best":-1'));
    assert.throws(() => new SweepRunner(s.ws, s.id, never), /field 'trials\.0\.best'/);
  } finally {
    d.cleanup();
  }
});
