// "Out: the same run on many GPUs": a run exported by `lino export-run` trains under
// torchrun with DistributedDataParallel (2 CPU processes, gloo) from the exported folder's own copy
// of the scaleout package; its loss sequence equals a one-process run with the same global batch;
// the run folder it writes opens in the workbench (run store, runs list, checkpoint state) and
// resumes there for one more epoch, continuing the PyTorch trajectory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../main/ops/tf';
import { RunStore } from '../../main/runs/run-store';
import { readCheckpointState } from '../../main/runs/checkpoint';
import { parseRunConfig, trainRun } from '../../main/train/runner';
import { Rng } from '../../main/train/rng';
import { StepMetrics, EpochMetrics } from '../../main/api/contract';
import exportRun from '../../main/cli/commands/export-run';
import { tempDir } from '../helpers/env';

const PY = '/usr/bin/python3';
const TORCHRUN = '/usr/bin/torchrun';
const probe = spawnSync(PY, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
const skip = probe.status !== 0 ? `${PY} cannot import torch and numpy (${(probe.stderr || String(probe.error)).trim().split('\n').pop()})` : !existsSync(TORCHRUN) ? `${TORCHRUN} is missing (Debian python3-torch ships it)` : false;
if (skip) console.log(`# scaleout tests skipped: ${skip}`);

const ws = tempDir('lino-scaleout-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

const config = {
  name: 'ddp-smoke',
  model: { width: 8, depth: 1 },
  data: { kind: 'synthetic', grid: [8, 8], train: 10, val: 4, seed: 3 },
  epochs: 3,
  batchSize: 4,
  seed: 5,
  optimizer: { lr: 3e-3 },
  schedule: { stepSize: 1, gamma: 0.5 },
};

function runPy(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, OMP_NUM_THREADS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.slice(-3000)}`));
    });
  });
}

type Rec = Record<string, unknown> & { type: string };

/** Every number of `want` (an epoch record's metrics) agrees with `got` to `tol` relative. */
function assertClose(got: unknown, want: unknown, tol: number, path: string): void {
  if (typeof want === 'number') {
    assert.equal(typeof got, 'number', `${path}: a number`);
    assert.ok(Math.abs((got as number) - want) <= tol * Math.max(1, Math.abs(want)), `${path}: workbench ${got} vs PyTorch ${want}`);
  } else if (Array.isArray(want)) {
    assert.equal((got as unknown[]).length, want.length, `${path}: length`);
    want.forEach((w, i) => assertClose((got as unknown[])[i], w, tol, `${path}[${i}]`));
  } else if (want && typeof want === 'object') {
    for (const [k, w] of Object.entries(want)) assertClose((got as Record<string, unknown>)[k], w, tol, `${path}.${k}`);
  } else {
    assert.deepEqual(got, want, path);
  }
}
const PROTOCOL_FIELDS = ['lr', 'train', 'val', 'test', 'blocks', 'best', 'bestEpoch', 'bestValRelL2', 'bestTestRelL2', 'bestTestRelL2Decoded'] as const;
const protocolPart = (r: Rec) => Object.fromEntries(PROTOCOL_FIELDS.filter((k) => k in r).map((k) => [k, r[k]]));
const metrics = (dir: string): Rec[] => readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
const losses = (recs: Rec[]) => recs.filter((r) => r.type === 'step').map((r) => r.loss as number);

test('the batch order is the workbench\'s: sfc32 permutations agree with main/train/rng.ts', { skip }, () => {
  const seeds = [0, 5, 42, 2 ** 31 + 7];
  const py = spawnSync(PY, ['-c', `import json, sys; sys.path.insert(0, '.')\nfrom scaleout.rng import Rng\nout = []\nfor s in ${JSON.stringify(seeds)}:\n    r = Rng(s); out.append([r.permutation(37), r.permutation(10), r.get_state()])\nprint(json.dumps(out))`], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
  assert.equal(py.status, 0, py.stderr);
  const want = seeds.map((s) => {
    const r = new Rng(s);
    // the workbench's state may hold int32-signed words (a = b ^ (b >>> 9)); both read them mod 2^32
    return [r.permutation(37), r.permutation(10), { kind: 'sfc32', s: r.getState().s.map((v) => v >>> 0) }];
  });
  assert.deepEqual(JSON.parse(py.stdout), want);
});

test('the Python side\'s own protocol tests pass (scaleout/tests: shares add up to the batch objective, checkpoint checksums, torn metrics line)', { skip }, () => {
  const r = spawnSync(PY, ['-m', 'unittest', 'scaleout.tests.test_protocol'], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname, env: { ...process.env, OMP_NUM_THREADS: '1' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /Ran 3 tests[\s\S]*OK/);
});

test('export-run -> torchrun DDP (2 gloo processes) = one process; the workbench opens and resumes the run', { skip, timeout: 240_000 }, async () => {
  const t0 = performance.now();
  const run = store.create(config, 'smoke');
  const out = join(ws.path, 'cluster');
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await exportRun.run(['smoke', '--out', out, '--workspace', ws.path, '--nproc-per-node', '2']), 0);
  } finally {
    console.log = log;
  }
  for (const f of ['config.json', 'README.md', 'run.sh', 'slurm.sbatch', 'scaleout/train.py', 'data/train_x.npy', 'data/val_y.npy']) assert.ok(existsSync(join(out, f)), `export-run wrote ${f}`);
  assert.ok(statSync(join(out, 'run.sh')).mode & 0o100, 'run.sh is executable');
  assert.match(readFileSync(join(out, 'slurm.sbatch'), 'utf8'), /srun torchrun --nnodes="\$SLURM_NNODES" --nproc_per_node=2 [\s\S]*--rdzv_backend=c10d/);
  // every default filled in: scaleout/train.py copies none of its own
  assert.deepEqual(JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')), JSON.parse(JSON.stringify(parseRunConfig(run.readConfig(), 'config.json'))));
  assert.equal(JSON.parse(readFileSync(join(out, 'model.json'), 'utf8')).kind, 'lino');
  const tExport = performance.now();

  // --redirects/--tee 2: torch 1.13's torchrun cannot parse their default '0' under Python 3.11 (Std is an IntFlag).
  const common = ['--data', 'data', '--config', 'config.json', '--max-epochs', '2', '--threads', '1'];
  await Promise.all([
    runPy(TORCHRUN, ['--standalone', '--nproc_per_node=2', '--redirects', '2', '--tee', '2', '-m', 'scaleout.train', '--run-dir', 'runs/smoke-cluster', ...common], out),
    runPy(PY, ['-m', 'scaleout.train', '--run-dir', 'runs/single', ...common], out),
  ]);
  const tTrain = performance.now();
  const ddpDir = join(out, 'runs', 'smoke-cluster');
  const ddp = metrics(ddpDir), single = metrics(join(out, 'runs', 'single'));
  const a = losses(ddp), b = losses(single);
  assert.equal(a.length, 6, '10 samples, batch 4: 3 steps per epoch (the last batch of 2 is split 1 + 1), 2 epochs');
  a.forEach((l, i) => assert.ok(Math.abs(l - b[i]!) <= 1e-5, `step ${i + 1}: DDP loss ${l} vs one process ${b[i]}`));
  const ddpState = JSON.parse(readFileSync(join(ddpDir, 'status.json'), 'utf8'));
  assert.equal(ddpState.backend, 'torch-ddp-gloox2');
  for (const r of ddp) (r.type === 'step' ? StepMetrics : EpochMetrics).parse(r);

  // Pull it back: copied into the workspace, the workbench lists it and resumes it.
  cpSync(ddpDir, join(store.root, 'smoke-cluster'), { recursive: true });
  const listed = store.list().find((r) => r.id === 'smoke-cluster');
  assert.ok(listed, 'runs.list lists the copied run');
  assert.equal(listed.epochsDone, 2);
  assert.equal(listed.state, 'stopped');
  const ck = readCheckpointState(join(store.root, 'smoke-cluster'), 'last')!;
  assert.equal(ck.globalStep, 6);
  assert.equal(ck.scheduler.lastEpoch, 2);
  assert.equal(ck.optimizer.step, 6);
  // The PyTorch side resumes its own checkpoint for the third epoch too: the reference the workbench must follow.
  await runPy(PY, ['-m', 'scaleout.train', '--run-dir', 'runs/smoke-cluster', '--data', 'data', '--threads', '1'], out);
  const torchThird = losses(metrics(ddpDir)).slice(6);
  const outcome = await trainRun(store.open('smoke-cluster'), { workspace: ws.path, owner: 'test' });
  const tResume = performance.now();
  assert.equal(outcome.state, 'done', outcome.reason);
  assert.equal(outcome.epoch, 3);
  assert.equal(outcome.step, 9);
  const wb = metrics(join(store.root, 'smoke-cluster'));
  assert.deepEqual(wb.filter((r) => r.type === 'step').map((r) => r.step), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(wb.filter((r) => r.type === 'epoch').length, 3);
  const wbThird = losses(wb).slice(6);
  wbThird.forEach((l, i) => assert.ok(Math.abs(l - torchThird[i]!) <= 1e-4 * Math.abs(torchThird[i]!), `resumed step ${7 + i}: workbench ${l} vs PyTorch ${torchThird[i]}`));
  assertClose(protocolPart(wb.at(-1)!), protocolPart(metrics(ddpDir).at(-1)!), 1e-5, 'epoch 3');
  console.log(`# export ${((tExport - t0) / 1000).toFixed(1)} s, torchrun(2) + 1-process ${((tTrain - tExport) / 1000).toFixed(1)} s, resume ${((tResume - tTrain) / 1000).toFixed(1)} s; max |DDP - 1 process| ${Math.max(...a.map((l, i) => Math.abs(l - b[i]!))).toExponential(2)}; resumed epoch losses workbench ${wbThird.map((x) => x.toFixed(6)).join(', ')} vs PyTorch ${torchThird.map((x) => x.toFixed(6)).join(', ')}`);
});

test('rollout mode, both ways: PyTorch epoch 1, workbench epoch 2, PyTorch epoch 3 = PyTorch alone, every metric to 1e-5', { skip, timeout: 120_000 }, async () => {
  const cfg = {
    name: 'ar',
    model: { width: 8, depth: 1, components: ['reflection', 'scattering'] },
    data: { kind: 'synthetic', task: 'autoregressive', grid: [6, 6], train: 6, val: 3, test: 2, seed: 1, tIn: 2, tOut: 3 },
    epochs: 3,
    batchSize: 3,
    seed: 9,
    optimizer: { lr: 3e-3 },
    schedule: { stepSize: 1, gamma: 0.7 },
  };
  store.create(cfg, 'ar');
  const out = join(ws.path, 'cluster-ar');
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await exportRun.run(['ar', '--out', out, '--workspace', ws.path]), 0);
  } finally {
    console.log = log;
  }
  const py = (run: string, extra: string[] = []) => runPy(PY, ['-m', 'scaleout.train', '--run-dir', run, '--data', 'data', '--config', 'config.json', '--threads', '1', ...extra], out);
  await py('runs/ar-cluster', ['--max-epochs', '1']);
  const ref = join(out, 'runs', 'ar-cluster');
  const wbDir = join(store.root, 'ar-cluster');
  cpSync(ref, wbDir, { recursive: true });
  await py('runs/ar-cluster'); // PyTorch alone for epochs 2 and 3: the reference
  const o = await trainRun(store.open('ar-cluster'), { workspace: ws.path, owner: 'test', maxEpochsThisCall: 1 });
  assert.equal(o.epoch, 2, o.reason);
  // and back: the workbench's checkpoint (weights, AdamW moments, StepLR, sfc32 state) resumes in PyTorch
  const back = join(out, 'runs', 'ar-back');
  cpSync(wbDir, back, { recursive: true });
  await py('runs/ar-back');
  const want = metrics(ref), wb = metrics(wbDir), got = metrics(back);
  assert.equal(got.length, want.length);
  const lw = losses(want), lg = losses(got);
  lg.forEach((l, i) => assert.ok(Math.abs(l - lw[i]!) <= 1e-5 * Math.abs(lw[i]!), `step ${i + 1}: ${l} vs PyTorch alone ${lw[i]}`));
  const epochs = (r: Rec[]) => r.filter((x) => x.type === 'epoch');
  assert.equal((epochs(wb)[1]!.val as { steps: { mean: number[] } }).steps.mean.length, 3, 'per-step rollout errors');
  assertClose(protocolPart(epochs(wb)[1]!), protocolPart(epochs(want)[1]!), 1e-5, 'epoch 2 (workbench)');
  assertClose(protocolPart(epochs(got)[2]!), protocolPart(epochs(want)[2]!), 1e-5, 'epoch 3 (PyTorch after the workbench)');
});

for (const kind of ['fno', 'deeponet'] as const) {
  test(`a ${kind} run: exported, trained under torchrun (2 gloo processes) by its PyTorch reference, read back and resumed by the workbench`, { skip, timeout: 180_000 }, async () => {
    const cfg = {
      name: kind,
      model: kind === 'fno' ? { kind, width: 6, depth: 2, modes: 3 } : { kind, width: 8, depth: 2, basis: 4 },
      data: { kind: 'synthetic', grid: [8], train: 6, val: 2, seed: 4 },
      epochs: 2,
      batchSize: 3,
      seed: 7,
    };
    store.create(cfg, kind);
    const out = join(ws.path, `cluster-${kind}`);
    const log = console.log;
    console.log = () => {};
    try {
      assert.equal(await exportRun.run([kind, '--out', out, '--workspace', ws.path, '--nproc-per-node', '2']), 0);
    } finally {
      console.log = log;
    }
    const spec = JSON.parse(readFileSync(join(out, 'model.json'), 'utf8'));
    assert.equal(spec.kind, kind);
    assert.equal(spec.layers, 2, 'model.json: the model as the registry builds it');
    await runPy(TORCHRUN, ['--standalone', '--nproc_per_node=2', '--redirects', '2', '--tee', '2', '-m', 'scaleout.train', '--run-dir', `runs/${kind}-cluster`,
      '--data', 'data', '--config', 'config.json', '--max-epochs', '1', '--threads', '1'], out);
    const dir = join(out, 'runs', `${kind}-cluster`);
    const recs = metrics(dir);
    assert.equal(losses(recs).length, 2, '6 samples, batch 3: 2 steps in the epoch');
    for (const r of recs) (r.type === 'step' ? StepMetrics : EpochMetrics).parse(r);
    assert.equal(JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')).backend, 'torch-ddp-gloox2');
    // Read back: the workbench lists it, reads its checkpoint (the PyTorch weights under the registry's names) and trains epoch 2.
    cpSync(dir, join(store.root, `${kind}-cluster`), { recursive: true });
    const listed = store.list().find((r) => r.id === `${kind}-cluster`);
    assert.ok(listed, 'runs.list lists the copied run');
    assert.equal(listed.epochsDone, 1);
    assert.equal(listed.modelKind, kind);
    const outcome = await trainRun(store.open(`${kind}-cluster`), { workspace: ws.path, owner: 'test' });
    assert.equal(outcome.state, 'done', outcome.reason);
    assert.equal(outcome.epoch, 2);
    const wb = losses(metrics(join(store.root, `${kind}-cluster`)));
    assert.equal(wb.length, 4);
    assert.ok(wb.every(Number.isFinite), 'finite losses after the resume');
  });
}
