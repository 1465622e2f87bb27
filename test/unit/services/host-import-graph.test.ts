// The host processes (Electron main and preload, the browser-mode server) route calls from the
// contract alone and never load the engine's code: no main/engine, no main/train, no tfjs. The
// import graph is esbuild's, walked from the same entries the build and start scripts use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../../helpers/host';

/** Entries that run in a host process, and the script that starts or bundles each. */
const HOST_ENTRIES = [
  { entry: 'electron/main.ts', script: 'scripts/build.mjs' },
  { entry: 'electron/preload.ts', script: 'scripts/build.mjs' },
  { entry: 'main/hosts/browser/main.ts', script: 'scripts/start.mjs' },
];
const ENGINE_ENTRY = 'main/engine/engine-process.ts';

/**
 * Modules that may only load in the engine process (tensor code and what drives it). main/train's
 * schema files (zod only: a run's config, an evaluation's result and its diagnostics, PyTorch's
 * probe report and its measured speed) are what the host validates with.
 */
const FORBIDDEN = [/^main\/engine\//, /^main\/train\/(?!(config|evaluation-result|torch-report|torch-speed-record|diagnostics\/schema)\.ts$)/, /^main\/ops\/tf\.ts$/, /^@tensorflow\//];

/** Every module (source files and external packages) reachable from `entry`. */
async function importGraph(entry: string): Promise<string[]> {
  const r = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    external: ['electron'],
    outdir: join(ROOT, 'dist', 'import-graph'),
    logLevel: 'silent',
  });
  const inputs = r.metafile.inputs;
  const external = Object.values(inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path));
  return [...new Set([...Object.keys(inputs), ...external])];
}

const forbidden = (graph: string[]) => graph.filter((m) => FORBIDDEN.some((re) => re.test(m)));

for (const { entry, script } of HOST_ENTRIES) {
  test(`the host entry ${entry} reaches no engine, training or tfjs module`, async () => {
    assert.ok(readFileSync(join(ROOT, script), 'utf8').includes(entry), `${script} no longer names ${entry}: update HOST_ENTRIES`);
    const graph = await importGraph(entry);
    assert.ok(graph.includes('main/services/workbench-service.ts') || entry === 'electron/preload.ts', `${entry}: the walk did not reach the service`);
    assert.deepEqual(forbidden(graph), [], `${entry} imports engine-only modules`);
  });
}

test('the same walk from the engine entry does find the engine, training and tfjs modules (the check can fail)', async () => {
  const found = forbidden(await importGraph(ENGINE_ENTRY));
  for (const re of FORBIDDEN) assert.ok(found.some((m) => re.test(m)), `no module matching ${re} under ${ENGINE_ENTRY}`);
});
