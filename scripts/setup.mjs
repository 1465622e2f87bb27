// `npm run setup`: everything a fresh clone needs, with no environment variables to set.
//  1. npm ci (pinned by package-lock.json). @tensorflow/tfjs-node-gpu and -node are optional
//     dependencies: where their libtensorflow download fails, npm drops them and the engine
//     uses wasm/cpu.
//  2. The Electron runtime: Electron >= 42 has no postinstall; we try its download here and carry
//     on without it where the host is unreachable (npm start then opens browser mode).
//  3. Builds the renderer, the Electron host and the engine bundle.
//  --test-deps also installs what the test suite needs from Debian (chromium, poppler-utils,
//  python3-h5py for the PDEBench layout tests' freshly written files).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { electronRuntime } from './electron-runtime.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const run = (cmd, argv, opts = {}) => spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
const summary = [];

if (args.includes('--test-deps')) {
  const h5py = existsSync('/usr/lib/python3/dist-packages/h5py');
  if (existsSync('/usr/bin/chromium') && existsSync('/usr/bin/pdftotext') && h5py) {
    summary.push('test dependencies: chromium, pdftotext and python3-h5py already installed');
  } else if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    run('apt-get', ['update', '-qq']);
    const r = run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium', 'poppler-utils', 'python3-h5py'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) { console.error('setup: apt-get could not install chromium, poppler-utils and python3-h5py'); process.exit(1); }
    summary.push('test dependencies: installed chromium, poppler-utils and python3-h5py from Debian');
  } else {
    summary.push('test dependencies: install Chromium (/usr/bin/chromium), pdftotext and python3-h5py yourself (needs root/apt); the tests that need them skip without them');
  }
}

const ci = run('npm', ['ci', '--no-audit', '--no-fund']);
if (ci.status !== 0) { console.error('setup: npm ci failed'); process.exit(ci.status ?? 1); }
const tfNode = ['tfjs-node-gpu', 'tfjs-node'].filter((p) => existsSync(`${root}node_modules/@tensorflow/${p}/package.json`));
summary.push(tfNode.length ? `TensorFlow native: ${tfNode.join(', ')} installed` : 'TensorFlow native: not installed (libtensorflow download unavailable); the engine uses wasm/cpu');

if (!electronRuntime(root).bin && !args.includes('--no-electron')) {
  const r = run(process.execPath, [`${root}node_modules/electron/install.js`], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
  summary.push(r.status === 0 ? 'Electron runtime: downloaded' : 'Electron runtime: download failed (host unreachable?); npm start will use browser mode');
} else {
  summary.push('Electron runtime: already present or skipped');
}

const b = run(process.execPath, [`${root}scripts/build.mjs`]);
if (b.status !== 0) { console.error('setup: build failed'); process.exit(b.status ?? 1); }
console.log(`\nsetup done:\n- ${summary.join('\n- ')}`);
