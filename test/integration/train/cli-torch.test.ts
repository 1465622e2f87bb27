// `lino train --backend torch:cpu` from a shell, for every model kind (an FNO, a DeepONet and a
// rollout train to the end side by side). Ctrl-C (SIGINT to the whole foreground process
// group, as a terminal sends it, so Python gets it too) stops at the next step with exit status 130
// and checkpoints/last holding a finished epoch; `--resume ID` continues it on PyTorch to the end.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';

const PY = '/usr/bin/python3';
const skip = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/lino.mjs');
const ws = tempDir('lino-cli-torch-');
after(() => ws.cleanup());
const env = { ...process.env, LINO_PYTHON: PY, OMP_NUM_THREADS: '1' };

test('Ctrl-C of lino train --backend torch:cpu: stopped, exit 130, resumable to the end on PyTorch', { skip, timeout: 240_000 }, async () => {
  const cfg = join(ws.path, 'run.json');
  writeFileSync(cfg, JSON.stringify({ name: 'cli torch', model: { width: 8, depth: 1 }, data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 }, epochs: 60, batchSize: 2 }));
  const child = spawn(process.execPath, [bin, 'train', '--config', cfg, '--workspace', ws.path, '--id', 'ct', '--backend', 'torch:cpu', '--json'], { cwd: root, env, detached: true });
  let stdout = '', stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  let sent = false;
  const code = await new Promise<number | null>((done) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      // the terminal's Ctrl-C, once: SIGINT to the process group (lino and Python)
      if (!sent && /"type":"epoch","epoch":2/.test(stdout)) {
        sent = true;
        process.kill(-child.pid!, 'SIGINT');
      }
    });
    child.on('exit', (c) => done(c));
  });
  assert.equal(code, 130, `${stderr}\n${stdout.slice(-500)}`);
  const summary = JSON.parse(stdout.trim().split('\n').pop()!) as { type: string; state: string; epoch: number };
  assert.deepEqual([summary.type, summary.state], ['summary', 'stopped']);
  const dir = join(ws.path, 'runs/ct');
  assert.equal(JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')).state, 'stopped');
  assert.ok(existsSync(join(dir, 'checkpoints/last/state.json')));
  const saved = JSON.parse(readFileSync(join(dir, 'checkpoints/last/state.json'), 'utf8')).epoch as number;
  assert.ok(saved >= 2, `checkpoints/last holds epoch ${saved}`);
  const r = spawnSync(process.execPath, [bin, 'train', '--resume', 'ct', '--workspace', ws.path, '--quiet'], { cwd: root, env, encoding: 'utf8', timeout: 200_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`resuming from checkpoints/last: epoch ${saved}`));
  assert.match(r.stdout, /run ct: done after 60 epochs/);
  assert.match(JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')).backend, /^torch-cpu/);
});

// Every other kind from the shell, side by side (the LiNO above): an FNO, a DeepONet and a LiNO
// Navier–Stokes-style rollout train to the end on torch cpu.
const KINDS: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['fno', { kind: 'fno', width: 4, depth: 1, modes: 3 }, { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }],
  ['deeponet', { kind: 'deeponet', width: 8, depth: 2, basis: 4 }, { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }],
  ['rollout', { width: 4, depth: 1 }, { kind: 'synthetic', task: 'autoregressive', grid: [8, 8], train: 4, val: 2, tIn: 2, tOut: 2 }],
];

test('lino train --backend torch:cpu trains an FNO, a DeepONet and a rollout to the end', { skip, timeout: 240_000 }, async () => {
  await Promise.all(KINDS.map(async ([id, model, data]) => {
    const cfg = join(ws.path, `${id}.json`);
    writeFileSync(cfg, JSON.stringify({ name: `cli torch ${id}`, model, data, epochs: 2, batchSize: 2 }));
    const child = spawn(process.execPath, [bin, 'train', '--config', cfg, '--workspace', ws.path, '--id', id, '--backend', 'torch:cpu', '--quiet'], { cwd: root, env });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    assert.equal(code, 0, `${id}: ${stderr.slice(-1500)}`);
    assert.match(stdout, new RegExp(`run ${id}: done after 2 epochs`));
    const dir = join(ws.path, 'runs', id);
    const st = JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as { state: string; backend: string; epoch: number };
    assert.deepEqual([st.state, st.epoch], ['done', 2], id);
    assert.match(st.backend, /^torch-cpu/, id);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { backend: string; model: { kind?: string } };
    assert.deepEqual([saved.backend, saved.model.kind ?? 'lino'], ['torch', (model.kind as string | undefined) ?? 'lino'], id);
    const epochs = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; val?: { relL2: number } }).filter((r) => r.type === 'epoch');
    assert.equal(epochs.length, 2, id);
    assert.ok(epochs.every((e) => Number.isFinite(e.val?.relL2) && e.val!.relL2 > 0), `${id}: finite validation errors`);
  }));
});
