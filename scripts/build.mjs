// Builds what the app ships: the renderer bundle (dist/renderer), the Electron host
// (dist/electron: main.js as ESM, preload.cjs as CommonJS because sandboxed preloads must be),
// and the engine process (dist/engine) for Electron's utilityProcess.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

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
  // Worker-thread entries sit beside the engine bundle, where main/util/workers.ts looks for them.
  const entries = JSON.parse(readFileSync(`${root}main/util/worker-entries.json`, 'utf8'));
  const workers = Object.fromEntries(Object.values(entries).map((e) => [e.bundle, e.source]));
  for (const [out, src] of Object.entries(workers)) {
    await build({ ...node, entryPoints: [`${root}${src}`], outfile: `${root}dist/engine/${out}`, format: 'esm' });
  }
}
console.log(`built ${only.length ? only.join(', ') : 'renderer, electron, engine'} into dist/`);
