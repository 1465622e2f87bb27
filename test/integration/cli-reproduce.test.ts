// `lino reproduce`: --list shows the six presets with sizes and estimated times, usage
// errors exit 2 naming the argument, and a tiny preset writes its runs into --workspace and its
// table (CSV, LaTeX, the paper's rows labelled 'reported (paper)') into --out.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/env';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/lino.mjs');
const ws = tempDir('lino-cli-reproduce-');
after(() => ws.cleanup());
const env = { ...process.env, LINO_BACKEND: 'cpu' };
const lino = (...args: string[]) => spawnSync(process.execPath, [bin, 'reproduce', ...args], { cwd: root, encoding: 'utf8', env, timeout: 170_000 });

test('lino reproduce --list: six presets, each with tiny, quick and paper sizes and an estimated time', () => {
  const r = lino('--list');
  assert.equal(r.status, 0, r.stderr);
  for (const name of ['1. burgers', '2. darcy-resolution', '3. darcy-ablation', '4. darcy-scattering', '5. navier-stokes', '6. airfoil']) assert.ok(r.stdout.includes(name), name);
  assert.equal((r.stdout.match(/--size tiny +~\d+ s/g) ?? []).length, 6);
  assert.equal((r.stdout.match(/--size quick/g) ?? []).length, 6);
  assert.equal((r.stdout.match(/--size paper +~[\d.]+ (h|days)/g) ?? []).length, 6);
});

test('lino reproduce: usage errors exit 2 and name the argument', () => {
  const cases: [string[], RegExp][] = [
    [[], /missing NAME/],
    [['no-such'], /NAME 'no-such' is not a preset/],
    [['burgers', '--size', 'huge'], /--size is 'huge', expected tiny, quick or paper/],
    [['burgers', 'airfoil'], /NAME: one preset, got 2/],
    [['burgers', '--list'], /NAME 'burgers' and --list/],
    [['burgers', '--epochs', '3'], /--epochs/],
  ];
  for (const [args, msg] of cases) {
    const r = lino(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, msg);
    assert.match(r.stderr, /try 'lino reproduce --help'/);
  }
});

test('lino reproduce darcy-scattering --size tiny: runs in the workspace, table and LaTeX with the reported rows in --out', { timeout: 180_000 }, () => {
  const out = join(ws.path, 'out');
  const r = lino('darcy-scattering', '--size', 'tiny', '--workspace', ws.path, '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^measured \(this machine\) +LiNO full/m);
  assert.match(r.stdout, /^reported \(paper\) +LiNO efficient .*3\.23 GB peak GPU memory/m);
  assert.match(r.stderr, /\[100%\] done: darcy-scattering \(tiny\)/);
  assert.equal(readdirSync(join(ws.path, 'runs')).length, 2, 'one run per arm');
  const csv = readFileSync(join(out, 'darcy-scattering-tiny.csv'), 'utf8').split('\r\n');
  assert.match(csv[0]!, /^source,model,kind,relL2 normalized,relL2 decoded,s\/epoch/);
  assert.deepEqual(csv.filter(Boolean).slice(1).map((l) => l.split(',')[0]), ['measured (this machine)', 'measured (this machine)', 'reported (paper)', 'reported (paper)']);
  assert.ok(existsSync(join(out, 'darcy-scattering-tiny.tex')));
});
