// `npm run setup`: everything a fresh clone needs, with no environment variables to set.
//  1. npm ci (pinned by package-lock.json). @tensorflow/tfjs-node-gpu and -node are optional
//     dependencies: where their libtensorflow download fails, npm drops them and the engine
//     uses wasm/cpu.
//  2. The Electron runtime: Electron >= 42 has no postinstall; we try its download here and carry
//     on without it where the host is unreachable (npm start then opens browser mode).
//  3. Builds the renderer, the Electron host and the engine bundle.
//  --test-deps also installs what the test suite needs from Debian: chromium and poppler-utils
//  (browser tests, PDF text), libvulkan1 (the webgpu tests run on SwiftShader, the software Vulkan
//  GPU chromium ships), python3-h5py and python3-scipy (files written fresh and read back the way
//  scipy/h5py users do) and python3-torch (the PyTorch references: parity, .pt import, the Python
//  handoff, scaleout's torchrun DDP).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { electronRuntime } from './electron-runtime.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const run = (cmd, argv, opts = {}) => spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
const summary = [];

if (args.includes('--test-deps')) {
  const TEST_PACKAGES = ['chromium', 'poppler-utils', 'libvulkan1', 'python3-h5py', 'python3-scipy', 'python3-torch'];
  const installed = (p) => spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout?.includes('install ok installed');
  const missing = TEST_PACKAGES.filter((p) => !installed(p));
  if (missing.length === 0) {
    summary.push(`test dependencies: ${TEST_PACKAGES.join(', ')} already installed`);
  } else if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    run('apt-get', ['update', '-qq']);
    const r = run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) { console.error(`setup: apt-get could not install ${missing.join(', ')}`); process.exit(1); }
    summary.push(`test dependencies: installed ${missing.join(', ')} from Debian`);
  } else {
    summary.push(`test dependencies: install ${missing.join(', ')} yourself (needs root/apt); the tests that need them skip without them, saying why`);
  }
}

// Electron 42+ and electron-builder's tooling declare Node >= 22.12; the workbench itself (engine,
// browser mode, CLI, tests) needs >= 20.19 (README). Say so before npm warns about them.
const [maj, min] = process.versions.node.split('.').map(Number);
const desktopNode = maj > 22 || (maj === 22 && min >= 12);
if (!desktopNode) {
  console.log(`setup: Node ${process.versions.node}: the workbench runs on it (Node >= 20.19); the desktop packaging tools (electron, @electron/get, @electron-internal/extract-zip, @electron/rebuild, node-abi) declare Node >= 22.12, so npm prints an EBADENGINE warning for each. Browser mode and the tests are unaffected; use Node >= 22.12 to build the desktop app.`);
}
const ci = run('npm', ['ci', '--no-audit', '--no-fund']);
if (ci.status !== 0) { console.error('setup: npm ci failed'); process.exit(ci.status ?? 1); }
const tfNode = ['tfjs-node-gpu', 'tfjs-node'].filter((p) => existsSync(`${root}node_modules/@tensorflow/${p}/package.json`));
if (!desktopNode) summary.push(`Node ${process.versions.node}: browser mode and tests supported; desktop packaging needs Node >= 22.12 (the five EBADENGINE warnings above)`);
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
