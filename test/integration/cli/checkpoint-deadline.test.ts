// Hardening II: `lino info --weights x.pt` (and predict / lightmaps, through operatorConfig) decode
// through the checkpoint worker with the deadline runs.importCheckpoint uses
// (readReleaseCheckpointWithDeadline, main/runs/release-checkpoint.ts), not in the CLI's own thread without one: the DAG "billion laughs" file (test/fixtures/pt/dag-args.pt, 16 KB) ends with a
// message naming the file and the limit, and a decode past the deadline is stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../helpers/host';

const FIX = join(ROOT, 'test', 'fixtures', 'pt');
/** The real CLI in its own process; the timeout only catches a hang. */
const lino = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin/lino.mjs'), ...args], { encoding: 'utf8', cwd: ROOT, timeout: 180_000, env: { ...process.env, ...env } });

test('lino info on the DAG "billion laughs" checkpoint exits non-zero, naming the file and the limit', { timeout: 200_000 }, () => {
  const r = lino({}, 'info', '--weights', join(FIX, 'dag-args.pt'));
  assert.equal(r.signal, null, `lino info was killed (${String(r.signal)}): it hung`);
  assert.notEqual(r.status, 0, r.stdout);
  assert.match(r.stderr, /dag-args\.pt: field 'args' holds more than 100000 values \(shared references counted each time they are reached\); refused/);
});

test('lino info decodes a .pt within the checkpoint deadline (LINO_CHECKPOINT_DEADLINE_MS): past it, it stops and says so', { timeout: 400_000 }, () => {
  const file = join(FIX, 'release-1d-standard.pt');
  const ok = lino({}, 'info', '--weights', file);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /release-1d-standard\.pt: \d+ tensors/);
  const late = lino({ LINO_CHECKPOINT_DEADLINE_MS: '1' }, 'info', '--weights', file);
  assert.notEqual(late.status, 0, late.stdout);
  assert.match(late.stderr, /release-1d-standard\.pt: reading the checkpoint took longer than 0\.001 s and was stopped/);
});

test('lino predict --weights x.pt decodes in the checkpoint worker too (operatorConfig): past the deadline, and on the DAG file, it stops naming the file', { timeout: 200_000 }, () => {
  const r = lino({ LINO_CHECKPOINT_DEADLINE_MS: '1' }, 'predict', '--weights', join(FIX, 'release-1d-standard.pt'), '--input', join(FIX, 'release-1d-standard.x.npy'), '--out', join(FIX, 'never-written.npy'));
  assert.notEqual(r.status, 0, r.stdout);
  assert.match(r.stderr, /release-1d-standard\.pt: reading the checkpoint took longer than 0\.001 s and was stopped/);
  const dag = lino({}, 'predict', '--weights', join(FIX, 'dag-args.pt'), '--input', join(FIX, 'release-1d-standard.x.npy'), '--out', join(FIX, 'never-written.npy'));
  assert.notEqual(dag.status, 0, dag.stdout);
  assert.match(dag.stderr, /dag-args\.pt: field 'args' holds more than 100000 values/);
});
