// Hardening III, repros 4, 5 and 9: planning a grid and collecting trials trained elsewhere.
// - A 64^8 grid without budget.maxTrials made --export's planAll run for good, rewriting state.json
//   on every configuration: it is refused at once naming both, and planAll writes the state once.
// - Collected metrics with "epoch": 1e309 and "relL2": -1 were accepted (the table showed "epochs
//   Infinity", the saved state "epochs": null, and no later run of the sweep could load it).
// - A collected trial folder that was a symbolic link failed with a bare ENOTDIR, leaving a link
//   behind; links inside a trained run were copied as links.
// Each is refused now naming the file, the line and the field, and nothing is copied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openOrCreateSweep, readSweepState } from '../../../main/sweep/sweep-state';
import { parseSweepConfig, SweepConfig } from '../../../main/sweep/sweep-config';
import { SweepRunner, type TrialExecutor } from '../../../main/sweep/sweep-runner';
import { collectSweepFromCluster } from '../../../main/sweep/sweep-export';
import { tempDir } from '../../helpers/env';

const never: TrialExecutor = async () => {
  throw new Error('no trial may train in this test');
};
const base = { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 2 };
const hugeAxes = ['optimizer.lr', 'optimizer.weightDecay', 'clipNorm', 'schedule.gamma', 'optimizer.beta1', 'optimizer.beta2', 'optimizer.eps', 'batchSize']
  .map((path, i) => (i === 7 ? { path, range: [1, 64], steps: 64, int: true } : { path, range: [0.01, 0.9], steps: 64 }));

test('a 64^8 grid without budget.maxTrials is refused at once naming both; planAll refuses it too (a hand-made sweep.json)', () => {
  const started = Date.now();
  assert.throws(() => parseSweepConfig({ name: 'huge', base, axes: hugeAxes }, 'huge.json'),
    /huge\.json: field 'axes': the grid has 281,474,976,710,656 configurations, more than the 100,000 allowed without field 'budget\.maxTrials'/);
  const d = tempDir('lino-sweep-collect-');
  try {
    const { id } = openOrCreateSweep(d.path, SweepConfig.parse({ name: 'huge', base, axes: hugeAxes }));
    const runner = new SweepRunner(d.path, id, never);
    assert.throws(() => runner.planAll(), /the grid has 281,474,976,710,656 configurations, more than the 100,000 allowed without field 'budget\.maxTrials'/);
    assert.deepEqual(readSweepState(d.path, id).configs, [], 'nothing planned');
    // with maxTrials the same grid is fine: it stops at the budget
    assert.doesNotThrow(() => parseSweepConfig({ name: 'huge', base, axes: hugeAxes, budget: { maxTrials: 10 } }));
  } finally {
    d.cleanup();
  }
  assert.ok(Date.now() - started < 60_000, 'at once, not after planning');
});

test('planAll writes state.json once for all its configurations, not once per configuration', () => {
  const d = tempDir('lino-sweep-collect-');
  try {
    const { id } = openOrCreateSweep(d.path, parseSweepConfig({ name: 'plan', base, axes: [{ path: 'optimizer.lr', range: [1e-4, 1e-2], steps: 40 }] }));
    let writes = 0;
    const planned = new SweepRunner(d.path, id, never, { onUpdate: () => writes++ }).planAll();
    assert.equal(planned.length, 40);
    assert.equal(readSweepState(d.path, id).trials.length, 40);
    assert.equal(writes, 1);
  } finally {
    d.cleanup();
  }
});

/** A sweep of two planned trials and a cluster folder holding `trial 0` trained (good metrics). */
function cluster(root: string) {
  const ws = join(root, 'ws');
  const { id } = openOrCreateSweep(ws, parseSweepConfig({ name: 'col', base, axes: [{ path: 'model.width', values: [4, 6] }] }));
  const planned = new SweepRunner(ws, id, never).planAll().map((p) => p.run);
  const out = join(root, 'cluster');
  const trained = (runId: string) => {
    const dir = join(out, runId, 'runs', `${runId}-cluster`);
    mkdirSync(join(dir, 'checkpoints'), { recursive: true });
    writeFileSync(join(dir, 'config.json'), readFileSync(join(ws, 'runs', runId, 'config.json')));
    writeFileSync(join(dir, 'status.json'), JSON.stringify({ state: 'done', pid: null, epoch: 2 }));
    writeFileSync(join(dir, 'metrics.jsonl'), [{ type: 'step', step: 1, loss: 0.5 }, { type: 'epoch', epoch: 1, val: { relL2: 0.4 } }, { type: 'epoch', epoch: 2, val: { relL2: 0.3 } }].map((r) => JSON.stringify(r) + '\n').join(''));
    return dir;
  };
  return { ws, id, out, runs: planned, trained };
}

/** The workspace's runs exactly as planned: nothing collected, no temporary or link left. */
function untouched(c: ReturnType<typeof cluster>) {
  for (const r of c.runs) assert.equal(existsSync(r.metricsPath), false, `${r.id}: nothing copied`);
  assert.deepEqual(readdirSync(join(c.ws, 'runs')).sort(), c.runs.map((r) => r.id).sort(), 'no temporary or link left in runs/');
  for (const r of c.runs) assert.equal(lstatSync(r.dir).isDirectory(), true);
}

test('collect copies a trained run (all or nothing) and the sweep records it done with its epochs', async () => {
  const d = tempDir('lino-sweep-collect-');
  try {
    const c = cluster(d.path);
    c.trained(c.runs[0]!.id);
    const r = collectSweepFromCluster(c.ws, c.id, c.out);
    assert.deepEqual(r.trials, [c.runs[0]!.id]);
    assert.ok(existsSync(join(c.runs[0]!.dir, 'sweep-trial.json')), 'the local run\'s own files are kept');
    assert.ok(existsSync(join(c.runs[0]!.dir, 'checkpoints')));
    assert.deepEqual(readdirSync(join(c.ws, 'runs')).filter((n) => n.startsWith('.')), [], 'no temporary left');
    let trained = 0;
    const end = await new SweepRunner(c.ws, c.id, async (run) => {
      trained++;
      run.writeStatus({ state: 'done', pid: null });
      return { state: 'done' };
    }).run();
    assert.equal(trained, 1);
    assert.deepEqual([end.trials[0]!.state, end.trials[0]!.epochs, end.trials[0]!.best], ['done', 2, 0.3]);
  } finally {
    d.cleanup();
  }
});

const badMetrics: [string, string, RegExp][] = [
  ['"epoch": 1e309', '{"type":"epoch","epoch":1e309,"val":{"relL2":0.3}}', /line 2: field 'epoch': expected a finite number/],
  ['"relL2": -1', '{"type":"epoch","epoch":1,"val":{"relL2":-1}}', /line 2: field 'val\.relL2': expected a number >= 0, got -1/],
  ['a step loss of 1e400', '{"type":"step","step":2,"loss":1e400}', /line 2: field 'loss': expected a finite number/],
  ['an array', '[1,2]', /line 2: expected a JSON object/],
  ['a line that is not JSON, followed by more', '{"type":"epo', /line 2: not JSON/],
  ['an epoch of 0', '{"type":"epoch","epoch":0,"val":{"relL2":0.3}}', /line 2: field 'epoch': expected an integer >= 1, got 0/],
];
for (const [what, line, expected] of badMetrics) {
  test(`collect refuses metrics with ${what}, naming the file and the line; nothing is copied`, () => {
    const d = tempDir('lino-sweep-collect-');
    try {
      const c = cluster(d.path);
      c.trained(c.runs[0]!.id);
      const dir = c.trained(c.runs[1]!.id);
      writeFileSync(join(dir, 'metrics.jsonl'), `{"type":"step","step":1,"loss":0.5}\n${line}\n{"type":"epoch","epoch":2,"val":{"relL2":0.3}}\n`);
      assert.throws(() => collectSweepFromCluster(c.ws, c.id, c.out), (e: Error) => e.message.startsWith(`${join(dir, 'metrics.jsonl')}: `) && expected.test(e.message) && /nothing was collected/.test(e.message));
      untouched(c);
    } finally {
      d.cleanup();
    }
  });
}

test('a torn last metrics line (a kill mid-write) is collected as the run store reads it', () => {
  const d = tempDir('lino-sweep-collect-');
  try {
    const c = cluster(d.path);
    const dir = c.trained(c.runs[0]!.id);
    writeFileSync(join(dir, 'metrics.jsonl'), '{"type":"epoch","epoch":1,"val":{"relL2":0.3}}\n{"type":"ep');
    assert.deepEqual(collectSweepFromCluster(c.ws, c.id, c.out).trials, [c.runs[0]!.id]);
  } finally {
    d.cleanup();
  }
});

test('collect refuses symbolic links (the trial folder, its runs folder, a file inside) naming the path; no link is left behind', () => {
  const d = tempDir('lino-sweep-collect-');
  try {
    const c = cluster(d.path);
    const id0 = c.runs[0]!.id;
    // a trial folder that is a link to a trained run elsewhere
    const elsewhere = join(d.path, 'elsewhere');
    mkdirSync(elsewhere);
    const real = c.trained(id0);
    renameSync(join(c.out, id0), join(elsewhere, id0));
    symlinkSync(join(elsewhere, id0), join(c.out, id0));
    assert.throws(() => collectSweepFromCluster(c.ws, c.id, c.out), new RegExp(`${join(c.out, id0)}: trial ${id0}'s folder is a symbolic link; --collect takes only plain files and folders`));
    untouched(c);
    // its runs/ folder a link
    rmSync(join(c.out, id0));
    mkdirSync(join(c.out, id0));
    symlinkSync(join(elsewhere, id0, 'runs'), join(c.out, id0, 'runs'));
    assert.throws(() => collectSweepFromCluster(c.ws, c.id, c.out), /runs: trial .*'s runs folder is a symbolic link/);
    untouched(c);
    // a link inside the trained run (to a file outside the workspace)
    rmSync(join(c.out, id0, 'runs'));
    renameSync(join(elsewhere, id0, 'runs'), join(c.out, id0, 'runs'));
    writeFileSync(join(d.path, 'secret.txt'), 'outside');
    symlinkSync(join(d.path, 'secret.txt'), join(real, 'checkpoints', 'model.safetensors'));
    assert.throws(() => collectSweepFromCluster(c.ws, c.id, c.out), new RegExp(`${join(real, 'checkpoints', 'model.safetensors')}: is a symbolic link`));
    untouched(c);
  } finally {
    d.cleanup();
  }
});

test('a trained folder whose layout clashes with its run (a folder where a file is) is refused before any trial is copied (found by the fuzzer)', () => {
  const d = tempDir('lino-sweep-collect-');
  try {
    const c = cluster(d.path);
    c.trained(c.runs[0]!.id);
    const dir = c.trained(c.runs[1]!.id);
    rmSync(join(dir, 'status.json'));
    mkdirSync(join(dir, 'status.json'));
    assert.throws(() => collectSweepFromCluster(c.ws, c.id, c.out), new RegExp(`${join(dir, 'status.json')}: is a folder; expected a file; nothing was collected`));
    untouched(c);
    rmSync(join(dir, 'status.json'), { recursive: true });
    writeFileSync(join(dir, 'status.json'), '{"state":"done"}');
    rmSync(join(dir, 'checkpoints'), { recursive: true, force: true });
    writeFileSync(join(dir, 'checkpoints'), 'a file where the run has a folder');
    assert.throws(() => collectSweepFromCluster(c.ws, c.id, c.out), /checkpoints: is a file where the local run has a folder/);
    untouched(c);
  } finally {
    d.cleanup();
  }
});
