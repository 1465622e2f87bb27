// Builds what the app ships: the renderer bundle (dist/renderer), the Electron host
// (dist/electron: main.js as ESM, preload.cjs as CommonJS because sandboxed preloads must be),
// and the engine process (dist/engine) for Electron's utilityProcess. `cli` (not part of a plain
// build) bundles the lino command line into dist/cli for the test runner (see below).
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

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
  // The wasm backend's thread-pool worker, started by path (main/ops/tfjs-internals/wasm-threads.ts looks beside the bundle).
  cpSync(`${root}main/ops/tfjs-internals/wasm-thread-worker.cjs`, `${root}dist/engine/wasm-thread-worker.cjs`);
}
// The CLI for scripts/test.mjs, under which bin/lino.mjs runs it (LINO_CLI_BUNDLE=1): about 50 `lino`
// processes of the suite then start with plain Node instead of compiling the sources through tsx.
// Commands stay separate chunks (help loads no TensorFlow.js), and each module's import.meta.url is
// its source file's (every output file lies in dist/cli), so everything it finds beside itself
// (package.json, scaleout/) is found as when bin/lino.mjs runs the sources. The one exception is
// main/util/workers.ts, which finds its workers beside the engine bundle (dist/engine, built by the
// same scripts/test.mjs run): the CLI's workers start from bundles too, not through tsx.
if (only.includes('cli')) {
  const outdir = `${root}dist/cli`;
  const workersModule = `${root}main/util/workers.ts`;
  const sourceUrls = {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
        if (!args.path.startsWith(root)) return undefined;
        const as = args.path === workersModule ? `${root}dist/engine/workers.js` : args.path;
        const url = `new URL(${JSON.stringify(relative(outdir, as).split('\\').join('/'))}, import.meta.url).href`;
        return { contents: readFileSync(args.path, 'utf8').replace(/\bimport\.meta\.url\b/g, url), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
  rmSync(outdir, { recursive: true, force: true });
  await build({ ...node, entryPoints: { lino: `${root}main/cli/lino.ts` }, outdir, format: 'esm', splitting: true, chunkNames: '[name]-[hash]', plugins: [sourceUrls] });
}
console.log(`built ${only.length ? only.join(', ') : 'renderer, electron, engine'} into dist/`);
