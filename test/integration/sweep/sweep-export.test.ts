// A sweep on a cluster: every trial of a grid written through the export-run machinery (one folder
// per trial: data, config, scaleout, run.sh) plus one SLURM array job and run-all.sh; TPE refused.
// Collecting: a trained run folder in the cluster layout is copied back as the trial's run (here one
// trained in this process stands in for the cluster's: no PyTorch on CI), and the sweep records it done.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/env';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import { openOrCreateSweep } from '../../../main/sweep/sweep-state';
import { collectSweepFromCluster, exportSweepForCluster } from '../../../main/sweep/sweep-export';
import { SweepRunner } from '../../../main/sweep/sweep-runner';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import { selectBackend } from '../../../main/ops/backend';

const ws = tempDir('lino-sweep-export-');
after(() => ws.cleanup());
const base = { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, batchSize: 4, epochs: 1 };

test('--export writes each grid trial for torchrun and one array job; --collect brings a trained one back', { timeout: 120_000 }, async () => {
  const sweep = parseSweepConfig({ name: 'exp', base, axes: [{ path: 'model.width', values: [4, 6] }] });
  const { id } = openOrCreateSweep(ws.path, sweep);
  const out = join(ws.path, 'cluster');
  const r = await exportSweepForCluster(ws.path, id, out, { nprocPerNode: 2, nodes: 1 });
  assert.deepEqual(r.trials, [`${id}-c0-s42`, `${id}-c1-s42`]);
  for (const t of r.trials) for (const f of ['config.json', 'run.sh', 'slurm.sbatch', 'scaleout/train.py', 'data/train_x.npy']) assert.ok(existsSync(join(out, t, f)), `${t}/${f}`);
  const sbatch = readFileSync(join(out, 'sweep-array.sbatch'), 'utf8');
  assert.match(sbatch, /#SBATCH --array=0-1/);
  assert.match(sbatch, /--nproc_per_node=2/);
  assert.match(readFileSync(join(out, 'run-all.sh'), 'utf8'), new RegExp(`cd ${r.trials[1]} && ./run.sh`));
  await assert.rejects(exportSweepForCluster(ws.path, id, out, { nprocPerNode: 1, nodes: 1 }), /--export names a folder that is not empty/);
  const tpe = parseSweepConfig({ name: 'tpe', base, method: 'tpe', axes: [{ path: 'optimizer.lr', logRange: [1e-4, 1e-2] }] });
  const t = openOrCreateSweep(ws.path, tpe);
  await assert.rejects(exportSweepForCluster(ws.path, t.id, join(ws.path, 'c2'), { nprocPerNode: 1, nodes: 1 }), /TPE/);

  // the cluster's result: a run folder trained elsewhere, in the layout scaleout writes
  await selectBackend('cpu');
  const store = new RunStore(join(ws.path, 'elsewhere'));
  const trained = store.create(JSON.parse(readFileSync(join(out, r.trials[0]!, 'config.json'), 'utf8')), 'x');
  assert.equal((await trainRun(trained, {})).state, 'done');
  cpSync(trained.dir, join(out, r.trials[0]!, 'runs', `${r.trials[0]}-cluster`), { recursive: true });
  const c = collectSweepFromCluster(ws.path, id, out);
  assert.deepEqual(c.trials, [r.trials[0]]);
  // recorded as done without training it again; the other trial trains here
  let trainedHere = 0;
  const state = await new SweepRunner(ws.path, id, async (run) => {
    trainedHere++;
    return trainRun(run, {});
  }).run();
  assert.equal(trainedHere, 1);
  assert.deepEqual(state.trials.map((x) => x.state), ['done', 'done']);
});

// Hardening III, repro 3: --export replaced DIR/run-all.sh, and DIR/<trial>/README.md where that
// folder had no config.json, without --force. A folder that holds anything is refused now, before
// any trial is planned; --force writes into it (files of the same names replaced, others kept).
test("--export never replaces a user's file without --force", { timeout: 120_000 }, async () => {
  const sweep = parseSweepConfig({ name: 'mine', base, axes: [{ path: 'model.width', values: [4] }] });
  const { id } = openOrCreateSweep(ws.path, sweep);
  const trial = `${id}-c0-s42`;
  const out = join(ws.path, 'users-folder');
  mkdirSync(join(out, trial), { recursive: true });
  writeFileSync(join(out, 'run-all.sh'), 'my own script');
  writeFileSync(join(out, trial, 'README.md'), 'my notes');
  await assert.rejects(exportSweepForCluster(ws.path, id, out, { nprocPerNode: 1, nodes: 1 }),
    (e: Error) => e.message.startsWith(`${out}: --export names a folder that is not empty (it holds`) && /pass --force/.test(e.message));
  assert.equal(readFileSync(join(out, 'run-all.sh'), 'utf8'), 'my own script');
  assert.equal(readFileSync(join(out, trial, 'README.md'), 'utf8'), 'my notes');
  assert.deepEqual(readdirSync(join(out, trial)), ['README.md'], 'nothing written');
  assert.equal(existsSync(join(ws.path, 'runs', trial)), false, 'nothing planned');
  writeFileSync(join(out, 'keep.txt'), 'kept');
  const r = await exportSweepForCluster(ws.path, id, out, { nprocPerNode: 1, nodes: 1, force: true });
  assert.deepEqual(r.trials, [trial]);
  assert.match(readFileSync(join(out, 'run-all.sh'), 'utf8'), /One torchrun per trial/);
  assert.equal(readFileSync(join(out, 'keep.txt'), 'utf8'), 'kept');
});
