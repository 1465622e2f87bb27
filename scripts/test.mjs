// Runs every test file under test/ with node's own test runner (TypeScript through tsx)
// and closes with the 10 slowest files and a plain "N passed, N failed, N skipped" line that CI reads.
// Usage: node scripts/test.mjs [filter ...]   (a filter is a substring of the file path)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') continue;
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.test\.(ts|tsx|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

const files = walk(join(root, 'test'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

// Build from the current sources first (seconds): the browser tests drive the built renderer, the
// tests' engines run from the engine bundle the desktop app ships (LINO_ENGINE_BUNDLE, read by
// test/helpers/test-launcher.ts) and their `lino` processes from the CLI bundle (LINO_CLI_BUNDLE,
// read by bin/lino.mjs), so no engine process, worker or CLI process compiles TypeScript on start.
const targets = ['engine', 'cli', ...(files.some((f) => f.startsWith('test/e2e/')) ? ['renderer'] : [])];
{
  const { spawnSync } = await import('node:child_process');
  const b = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), ...targets], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// Two files at a time: most files wait on engines, workers and Chromium more than they compute, so
// a 2-core machine runs the suite in about two thirds of the time. A file that measures latency
// (it says `// test-runner: alone` in its first lines) runs afterwards, with nothing beside it.
const concurrency = Number(process.env.LINO_TEST_CONCURRENCY) || Math.min(4, Math.max(2, availableParallelism() - 1));
const alone = (f) => /^\/\/ test-runner: alone/m.test(readFileSync(join(root, f), 'utf8').slice(0, 2000));
const phases = [
  { files: files.filter((f) => !alone(f)), concurrency },
  { files: files.filter(alone), concurrency: 1 },
].filter((p) => p.files.length > 0);

const reportDir = mkdtempSync(join(tmpdir(), 'lino-test-'));
// The setups' runs, trained once for this invocation and copied into each file's workspace
// (sharedRun in test/helpers/trained-run.ts); removed at the end.
const runCache = mkdtempSync(join(tmpdir(), 'lino-run-cache-'));
function runPhase({ files: phaseFiles, concurrency: n }, i) {
  const summaryFile = join(reportDir, `summary-${i}.txt`);
  const args = [
    '--import', 'tsx',
    '--test', `--test-concurrency=${n}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'scripts/test-summary-reporter.mjs')}`, `--test-reporter-destination=${summaryFile}`,
    ...phaseFiles,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, LINO_TEST: '1', LINO_ENGINE_BUNDLE: join(root, 'dist/engine/engine-process.js'), LINO_CLI_BUNDLE: '1', LINO_RUN_CACHE: runCache } });
    child.on('exit', (code) => resolve({ code, summaryFile }));
  });
}

let pass = 0, fail = 0, skipped = 0, todo = 0, cancelled = 0, exitCode = 0;
const durations = []; // [milliseconds, file] of every file run
for (const [i, phase] of phases.entries()) {
  if (phases.length > 1) console.log(`\n# ${phase.files.length} test files, ${phase.concurrency} at a time`);
  const { code, summaryFile } = await runPhase(phase, i);
  try {
    const summary = readFileSync(summaryFile, 'utf8');
    const num = (k) => Number((summary.match(new RegExp(`^# ${k} (\\d+)$`, 'm')) || [])[1] || 0);
    pass += num('pass'); fail += num('fail'); skipped += num('skipped'); todo += num('todo'); cancelled += num('cancelled');
    for (const [, ms, file] of summary.matchAll(/^(\d+)\t(.+)$/gm)) durations.push([Number(ms), relative(root, file)]);
  } catch {
    fail += 1;
  }
  if (code !== 0 && !exitCode) exitCode = code || 1;
}
// Where the suite's time goes: the files to look at first when it grows slow.
if (durations.length > 1) {
  const slowest = durations.sort((a, b) => b[0] - a[0]).slice(0, 10);
  console.log(`\n# ${slowest.length} slowest test files (of ${durations.length}; wall time, files run side by side)`);
  for (const [ms, file] of slowest) console.log(`# ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
}
rmSync(runCache, { recursive: true, force: true });
const failed = fail + cancelled;
console.log(`\n${pass} passed, ${failed} failed, ${skipped + todo} skipped`);
process.exit(exitCode === 0 && failed === 0 ? 0 : exitCode || 1);
