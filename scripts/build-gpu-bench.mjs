// Builds the self-contained GPU bench folder (default dist/gpu-bench/) for a machine with an
// NVIDIA GPU and PyTorch CUDA but no Node: bench/gpu/README.md says how to run it.
//   node scripts/build-gpu-bench.mjs [OUT_DIR] [--debs]
// --debs: also apt-get download the Vulkan loader and GL dispatch .debs into OUT_DIR/.gl (Debian)
// It holds: node.xz (this Node binary, xz-compressed), webgpu/ (the npm package's index.js,
// package.json and dist/linux-x64/dawn.node.xz), bench.mjs (esbuild bundle of bench/gpu/entry.ts),
// parity/ (tools/parity's PyTorch reference and step timer), run-gpu-bench.sh, README.md.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync, writeFileSync, readFileSync, chmodSync, existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const cli = process.argv.slice(2);
const out = resolve(cli.find((a) => !a.startsWith('--')) ?? join(root, 'dist/gpu-bench'));
for (const f of ['bench.mjs', 'parity', 'scaleout', 'run-gpu-bench.sh', 'README.md']) rmSync(join(out, f), { recursive: true, force: true });
mkdirSync(join(out, 'webgpu/dist/linux-x64'), { recursive: true });
mkdirSync(join(out, 'parity'), { recursive: true });

// xz of the 100 MB Node binary takes minutes: kept when newer than its source
const xz = (src, dst) => {
  if (existsSync(dst) && statSync(dst).mtimeMs > statSync(src).mtimeMs) return;
  const r = spawnSync('xz', ['-c', '-6', '-T0', src], { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`xz ${src}: ${r.stderr}`);
  writeFileSync(dst, r.stdout);
};

await build({
  entryPoints: [join(root, 'bench/gpu/entry.ts')],
  outfile: join(out, 'bench.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // the wasm and tfjs-node backends are never loaded by the GPU bench; webgpu comes from ./webgpu
  external: ['webgpu', '@tensorflow/tfjs-backend-wasm', '@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu'],
  // one tfjs-core for main/ops/tf.ts and tfjs-backend-webgpu: a second copy would hold its own backend registry
  alias: { '@tensorflow/tfjs-core': join(root, 'node_modules/@tensorflow/tfjs-core') },
  // keep main/ops/tf.ts's side-effect imports (the cpu backend), which tfjs's "sideEffects" lists would drop
  ignoreAnnotations: true,
  // program classes keep their names: tfjs's profiler labels a program by constructor.name
  keepNames: true,
  // CommonJS dependencies call require() inside the ESM bundle
  banner: { js: "import { createRequire as __lino_createRequire } from 'node:module'; const require = __lino_createRequire(import.meta.url);" },
  logLevel: 'warning',
});

const pkg = join(root, 'node_modules/webgpu');
copyFileSync(join(pkg, 'index.js'), join(out, 'webgpu/index.js'));
copyFileSync(join(pkg, 'package.json'), join(out, 'webgpu/package.json'));
xz(join(pkg, 'dist/linux-x64/dawn.node'), join(out, 'webgpu/dist/linux-x64/dawn.node.xz'));
xz(process.execPath, join(out, 'node.xz'));
for (const f of ['bench_step.py', 'gemm_bench.py']) copyFileSync(join(root, 'tools/parity', f), join(out, 'parity', f));
// bench_step.py imports the reference models from the scaleout package (run-gpu-bench.sh puts the folder on PYTHONPATH)
mkdirSync(join(out, 'scaleout'), { recursive: true });
for (const f of ['__init__.py', 'model.py', 'fno_ref.py', 'deeponet_ref.py']) copyFileSync(join(root, 'scaleout', f), join(out, 'scaleout', f));
for (const f of ["run-gpu-bench.sh", "README.md"]) copyFileSync(join(root, 'bench/gpu', f), join(out, f));
chmodSync(join(out, 'run-gpu-bench.sh'), 0o755);
if (cli.includes('--debs')) {
  const debs = ['libvulkan1', 'libegl1', 'libglvnd0', 'libopengl0', 'libgl1', 'libglx0', 'libgles2'];
  mkdirSync(join(out, '.gl'), { recursive: true });
  const r = spawnSync('apt-get', ['download', ...debs], { cwd: join(out, '.gl'), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`apt-get download ${debs.join(' ')}: ${r.stderr || r.error}`);
}
const size = spawnSync('du', ['-sh', out], { encoding: 'utf8' }).stdout.trim();
console.log(`gpu bench folder: ${size} (node ${process.version}, webgpu ${JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version})`);
