// `lino` command-line conventions: --version/-V, help for every command and subcommand,
// help without loading any command, exit status 2 for usage errors and 1 for failures, no EPIPE
// stack trace when piped into a reader that closes early, results on stdout and progress on
// stderr, `train --json` lines, and Ctrl-C during `train` exiting 130 with checkpoints/last written.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/env';
import { COMMANDS } from '../../main/cli/commands/index';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/lino.mjs');
const ws = tempDir('lino-cli-conv-');
after(() => ws.cleanup());
const env = { ...process.env, LINO_BACKEND: 'cpu' };
const lino = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', env, timeout: 120_000 });

/** A tiny synthetic run: 1D grid 16, width 8, depth 1 (about a tenth of a second per epoch on cpu). */
function config(name: string, epochs: number): string {
  const path = join(ws.path, `${name}.json`);
  writeFileSync(path, JSON.stringify({ name, model: { width: 8, depth: 1 }, data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, epochs, batchSize: 4 }));
  return path;
}

test('lino --version, -V and version print the package version', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V', 'version']) {
    const r = lino(flag);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), `${pkg.productName} ${pkg.version} (node ${process.version})`);
  }
});

test('lino help CMD and lino CMD --help print the usage of every command and subcommand; the data group lists its subcommands', () => {
  const all = lino('help');
  assert.equal(all.status, 0, all.stderr);
  for (const c of COMMANDS) {
    assert.ok(all.stdout.includes(`  ${c.name.padEnd(18)} ${c.summary}`), `lino help lists ${c.name}`);
    for (const argv of [['help', ...c.name.split(' ')], [...c.name.split(' '), '--help'], [...c.name.split(' '), '-h']]) {
      const r = lino(...argv);
      assert.equal(r.status, 0, `lino ${argv.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout.trim(), c.usage.trim(), `lino ${argv.join(' ')}`);
      assert.equal(r.stderr, '');
    }
  }
  for (const argv of [['data', '--help'], ['help', 'data']]) {
    const r = lino(...argv);
    assert.equal(r.status, 0, `lino ${argv.join(' ')}: ${r.stderr}`);
    for (const sub of ['data generate', 'data inspect', 'data export']) assert.match(r.stdout, new RegExp(`  ${sub} `));
  }
});

test('help is served from the command table alone: the dispatcher and the table import no command module', () => {
  // What `lino help` loads: lino.ts, args.ts, commands/index.ts. A static import of a command (or
  // of anything that pulls in TensorFlow.js) there would make help as slow as training's start.
  for (const f of ['main/cli/lino.ts', 'main/cli/args.ts', 'main/cli/commands/index.ts']) {
    const src = readFileSync(join(root, f), 'utf8');
    const imports = [...src.matchAll(/^import (?!type )[^;]*from '([^']+)';/gm)].map((m) => m[1]!);
    for (const i of imports) assert.ok(i.startsWith('node:') || ['./commands/index', './args', '../lino', '../util/error-message', '../util/printable'].includes(i), `${f} imports '${i}' at load time`);
  }
  const time = (...argv: string[]) => { const t0 = performance.now(); const r = lino(...argv); assert.ok(r.status === 0 || r.status === 2); return performance.now() - t0; };
  const help = Math.min(time('help'), time('help'));
  const loaded = Math.min(time('predict'), time('predict')); // loads predict (and TensorFlow.js), then a usage error
  console.log(`lino help ${help.toFixed(0)} ms; lino predict (command loaded, usage error) ${loaded.toFixed(0)} ms`);
  assert.ok(help < loaded, `help ${help.toFixed(0)} ms should be faster than loading a command (${loaded.toFixed(0)} ms)`);
});

test('usage errors exit 2, failures while running exit 1, both with a message on stderr only', () => {
  const usage: string[][] = [['nosuch'], ['data'], ['data', 'nosuch'], ['help', 'nosuch'], ['info'], ['info', '--bogus'], ['train'], ['predict', '--config', 'x'], ['data', 'inspect'], ['eval', '--run', 'x', '--split', 'nope']];
  for (const argv of usage) {
    const r = lino(...argv);
    assert.equal(r.status, 2, `lino ${argv.join(' ')}: status ${r.status}, ${r.stderr}`);
    assert.equal(r.stdout, '', `lino ${argv.join(' ')} printed to stdout`);
    assert.ok(r.stderr.trim().length > 0);
  }
  const failures: string[][] = [['info', '--weights', join(ws.path, 'missing.safetensors')], ['train', '--config', join(ws.path, 'missing.json'), '--workspace', ws.path], ['data', 'inspect', join(ws.path, 'missing.mat')]];
  for (const argv of failures) {
    const r = lino(...argv);
    assert.equal(r.status, 1, `lino ${argv.join(' ')}: status ${r.status}, ${r.stderr}`);
    assert.match(r.stderr, /missing/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('train: results on stdout, backend report and progress on stderr; --json gives one parseable object per line, then the summary', () => {
  const plain = lino('train', '--config', config('plain', 2), '--workspace', ws.path, '--id', 'plain');
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stderr, /backend: cpu/);
  assert.match(plain.stderr, /memory: /);
  assert.doesNotMatch(plain.stdout, /backend:|memory:/);
  assert.match(plain.stdout, /epoch 2\/2 {2}train loss/);
  assert.match(plain.stdout, /run plain: done after 2 epochs/);

  const r = lino('train', '--config', config('json', 3), '--workspace', ws.path, '--id', 'json', '--json');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
  assert.equal(lines[0]!.type, 'run');
  assert.equal(lines[0]!.id, 'json');
  assert.equal(lines.filter((l) => l.type === 'step').length, 6, '2 steps per epoch, 3 epochs');
  assert.deepEqual(lines.filter((l) => l.type === 'epoch').map((l) => l.epoch), [1, 2, 3]);
  const summary = lines[lines.length - 1]!;
  assert.equal(summary.type, 'summary');
  assert.equal(summary.state, 'done');
  assert.equal(summary.step, 6);
  assert.equal(typeof (summary.best as { valRelL2: number }).valRelL2, 'number');
  assert.match(r.stderr, /epoch 3\/3 {2}train loss/, 'human lines on stderr with --json');
  const recorded = readFileSync(join(ws.path, 'runs/json/metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.filter((l) => l.type === 'epoch').map((l) => l.val), recorded.filter((m) => m.type === 'epoch').map((m) => m.val), 'the same records as metrics.jsonl');
});

test('piped into a reader that closes early (| head -n 2): no EPIPE stack trace, quiet exit', () => {
  const cfg = config('pipe', 500);
  const sh = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" train --config "${cfg}" --workspace "${ws.path}" --id pipe --json 2>"${join(ws.path, 'pipe.err')}" | head -n 2; echo "status \${PIPESTATUS[0]}"`], { cwd: root, encoding: 'utf8', env, timeout: 120_000 });
  const out = sh.stdout.trim().split('\n');
  assert.equal(out.length, 3, sh.stdout);
  assert.equal(JSON.parse(out[0]!).type, 'run');
  assert.equal(out[2], 'status 141', 'the status of a process ended by a closed pipe');
  const err = readFileSync(join(ws.path, 'pipe.err'), 'utf8');
  assert.doesNotMatch(err, /EPIPE|\n\s+at /, err);
});

test('Ctrl-C (SIGINT) during train: stops at the next step, checkpoints/last written, exit status 130', async () => {
  const child = spawn(process.execPath, [bin, 'train', '--config', config('sigint', 1000), '--workspace', ws.path, '--id', 'sigint', '--json'], { cwd: root, env });
  let stdout = '', stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const code = await new Promise<number | null>((done) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!child.killed && /"type":"epoch","epoch":2/.test(stdout)) child.kill('SIGINT');
    });
    child.on('exit', (c) => done(c));
  });
  assert.equal(code, 130, stderr);
  assert.match(stderr, /stopping after this step/);
  const summary = JSON.parse(stdout.trim().split('\n').pop()!);
  assert.equal(summary.type, 'summary');
  assert.equal(summary.state, 'stopped');
  const last = join(ws.path, 'runs/sigint/checkpoints/last');
  for (const f of ['weights.safetensors', 'optimizer.safetensors', 'state.json']) assert.ok(existsSync(join(last, f)), `checkpoints/last/${f}`);
  assert.ok(JSON.parse(readFileSync(join(last, 'state.json'), 'utf8')).epoch >= 2, 'the checkpoint holds a finished epoch');
});

test('Ctrl-C during `train --seeds 3`: the running seed stops, no further seed starts, the group so far is summarized, exit status 130', async () => {
  const child = spawn(process.execPath, [bin, 'train', '--config', config('seeds-sigint', 1000), '--workspace', ws.path, '--id', 'grp', '--seeds', '3'], { cwd: root, env });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  const code = await new Promise<number | null>((done) => {
    child.stderr.on('data', (d) => { stderr += d; });
    // Ctrl-C once the first seed has finished an epoch (its run directory is grp-s<seed>).
    const poll = setInterval(() => {
      const first = existsSync(join(ws.path, 'runs')) ? readdirSync(join(ws.path, 'runs')).filter((d) => d.startsWith('grp-s')).sort()[0] : undefined;
      const m = first && join(ws.path, 'runs', first, 'metrics.jsonl');
      if (!child.killed && m && existsSync(m) && /"type":"epoch"/.test(readFileSync(m, 'utf8'))) child.kill('SIGINT');
    }, 100);
    child.on('exit', (c) => {
      clearInterval(poll);
      done(c);
    });
  });
  assert.equal(code, 130, `${stdout}\n${stderr}`);
  assert.match(stderr, /stopping after this step/);
  assert.match(stdout, /seed \d+: stopped/);
  assert.match(stdout, /group grp \(1 of 3 seeds\)/);
  assert.equal(readdirSync(join(ws.path, 'runs')).filter((d) => d.startsWith('grp-s')).length, 1, 'no second seed started');
});
