// Builds what the app ships: the renderer bundle (dist/renderer), the Electron host
// (dist/electron: main.js as ESM, preload.cjs as CommonJS because sandboxed preloads must be),
// and the engine process (dist/engine) for Electron's utilityProcess.
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

if (want('renderer')) {
  rmSync(`${root}dist/renderer`, { recursive: true, force: true });
  mkdirSync(`${root}dist/renderer`, { recursive: true });
  await build({
    entryPoints: { app: `${root}renderer/src/main.tsx` },
    bundle: true,
    outdir: `${root}dist/renderer`,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    sourcemap: true,
    legalComments: 'none',
    loader: { '.css': 'css' },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  await build({ entryPoints: { app: `${root}renderer/src/styles.css` }, bundle: true, outdir: `${root}dist/renderer`, minify: true, logLevel: 'warning' });
  cpSync(`${root}renderer/index.html`, `${root}dist/renderer/index.html`);
}

const node = { bundle: true, platform: 'node', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
if (want('electron')) {
  await build({ ...node, entryPoints: [`${root}electron/main.ts`], outfile: `${root}dist/electron/main.js`, format: 'esm', external: ['electron'] });
  await build({ ...node, entryPoints: [`${root}electron/preload.ts`], outfile: `${root}dist/electron/preload.cjs`, format: 'cjs', external: ['electron'] });
}
if (want('engine')) {
  await build({ ...node, entryPoints: [`${root}main/engine/engine-process.ts`], outfile: `${root}dist/engine/engine-process.js`, format: 'esm' });
  // Worker-thread entries sit beside the engine bundle, where the bundled code looks for them.
  const workers = {
    'worker.js': 'main/data/generate/worker.ts',
    'train-worker.js': 'main/engine/train-worker.ts',
    'job-worker.js': 'main/engine/job-worker.ts',
    'solve-worker.js': 'main/engine/solve-worker.ts',
    'playground-worker.js': 'main/engine/playground-worker.ts',
    'data-parallel-worker.js': 'main/train/data-parallel-worker.ts',
    'inspect-worker.js': 'main/data/formats/inspect-worker.ts',
    'checkpoint-worker.js': 'main/runs/release-checkpoint-worker.ts',
  };
  for (const [out, src] of Object.entries(workers)) {
    await build({ ...node, entryPoints: [`${root}${src}`], outfile: `${root}dist/engine/${out}`, format: 'esm' });
  }
}
console.log(`built ${only.length ? only.join(', ') : 'renderer, electron, engine'} into dist/`);
