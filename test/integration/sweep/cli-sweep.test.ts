// `lino sweep` end to end in a real child process: a 2x2 grid with 2 seeds and a random sweep with
// ASHA, each killed with SIGKILL in the middle of a trial and run again: the sweep resumes and ends
// with every trial exactly once (one run folder each, each epoch recorded once), the summary's
// tables, and exit status 0; a bad sweep file exits 1 naming the file and field.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/lino.mjs');
const ws = tempDir('lino-sweep-cli-');
after(() => ws.cleanup());
const env = { ...process.env, LINO_BACKEND: 'cpu' };
const base = { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, batchSize: 4 };

function sweepFile(name: string, sweep: Record<string, unknown>): string {
  const path = join(ws.path, `${name}.json`);
  writeFileSync(path, JSON.stringify({ name, ...sweep }));
  return path;
}

/** Starts `lino sweep`, and kills it with SIGKILL once `trials` trials have started and the last one has finished an epoch. */
function killMidTrial(file: string, wsDir: string, trials: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [bin, 'sweep', '--config', file, '--workspace', wsDir, '--json'], { cwd: root, env });
    let err = '';
    let seen = 0;
    let epochAfter = false;
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      for (const line of d.toString().split('\n')) {
        if (line.startsWith('trial ')) seen++;
        else if (seen >= trials && line.includes('epoch 1:')) epochAfter = true;
      }
      if (epochAfter) p.kill('SIGKILL');
    });
    p.on('exit', (code, sig) => (sig === 'SIGKILL' ? resolve() : reject(new Error(`expected a SIGKILL, got ${code}/${sig}: ${err}`))));
  });
}

function finish(file: string, wsDir: string) {
  const r = spawnSync(process.execPath, [bin, 'sweep', '--config', file, '--workspace', wsDir, '--json'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  return { status: r.status, stderr: r.stderr, lines, summary: lines.find((l) => l.type === 'summary') };
}

/** Every trial one run folder, every run's epochs recorded once and in order. */
function assertNoDuplicates(wsDir: string, summary: { id: string; trials: { runId: string; epochs: number }[] }) {
  const ids = summary.trials.map((t) => t.runId);
  assert.equal(new Set(ids).size, ids.length);
  const runs = readdirSync(join(wsDir, 'runs')).filter((n) => n.startsWith(summary.id));
  assert.deepEqual(runs.sort(), [...ids].sort());
  for (const t of summary.trials) {
    const epochs = readFileSync(join(wsDir, 'runs', t.runId, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'epoch').map((r) => r.epoch);
    assert.deepEqual(epochs, Array.from({ length: t.epochs }, (_, i) => i + 1), t.runId);
  }
}

test('a 2x2 grid with 2 seeds: killed with SIGKILL during its third trial, a re-run resumes and ends with 8 trials, mean ± std per configuration', { timeout: 120_000 }, async () => {
  const wsDir = join(ws.path, 'grid');
  const file = sweepFile('grid', { base: { ...base, epochs: 2 }, axes: [{ path: 'model.width', values: [4, 6] }, { path: 'optimizer.lr', values: [1e-3, 1e-2] }], seeds: 2 });
  await killMidTrial(file, wsDir, 3);
  const r = finish(file, wsDir);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.summary.status, 'done');
  assert.equal(r.summary.trials.length, 8);
  assert.ok(r.summary.trials.every((t: { state: string; epochs: number }) => t.state === 'done' && t.epochs === 2));
  assert.equal(r.summary.analysis.configs.length, 4);
  for (const c of r.summary.analysis.configs) assert.ok(c.n === 2 && c.seeds === 2 && c.std !== null);
  assertNoDuplicates(wsDir, r.summary);
  // each trial is an ordinary run: its group is its configuration, its sweep file names the sweep
  const t0 = r.summary.trials[0];
  const cfg = JSON.parse(readFileSync(join(wsDir, 'runs', t0.runId, 'config.json'), 'utf8'));
  assert.equal(cfg.group, `${r.summary.id}-c0`);
  assert.equal(JSON.parse(readFileSync(join(wsDir, 'runs', t0.runId, 'sweep-trial.json'), 'utf8')).sweepId, r.summary.id);
  // run again when done: nothing trains, the same summary
  const again = finish(file, wsDir);
  assert.equal(again.status, 0);
  assert.equal(again.summary.trials.length, 8);
});

test('a random sweep with ASHA: killed with SIGKILL during a trial, resumed; rungs recorded, some trials pruned, budget respected', { timeout: 120_000 }, async () => {
  const wsDir = join(ws.path, 'asha');
  const file = sweepFile('asha', {
    base: { ...base, epochs: 3 }, method: 'random', samplerSeed: 3,
    axes: [{ path: 'optimizer.lr', logRange: [1e-5, 3e-2] }, { path: 'model.width', values: [4, 6] }],
    budget: { maxTrials: 4 }, earlyStopping: { minEpochs: 1, eta: 2, minTrialsPerRung: 2 },
  });
  await killMidTrial(file, wsDir, 2);
  const r = finish(file, wsDir);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.summary.trials.length, 4);
  assert.match(r.summary.reason, /budget/);
  for (const t of r.summary.trials) {
    assert.deepEqual(t.rungs, [1, 2]);
    assert.ok(t.rungHistory.length >= 1, JSON.stringify(t));
    if (t.state === 'pruned') assert.equal(t.rungHistory.at(-1).decision, 'prune');
    else assert.equal(t.state, 'done');
  }
  assert.ok(r.summary.trials.some((t: { state: string }) => t.state === 'pruned'), 'ASHA pruned nothing');
  assertNoDuplicates(wsDir, r.summary);
});

test('a bad sweep file exits 1 naming the file and the field; a usage error exits 2', () => {
  const bad = sweepFile('bad', { base: { ...base, epochs: 1 }, axes: [{ path: 'model.nope', values: [1] }] });
  const r = spawnSync(process.execPath, [bin, 'sweep', '--config', bad, '--workspace', join(ws.path, 'bad')], { cwd: root, env, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad\.json: axes\[0\] \('model\.nope'\)/);
  const u = spawnSync(process.execPath, [bin, 'sweep'], { cwd: root, env, encoding: 'utf8' });
  assert.equal(u.status, 2);
});
