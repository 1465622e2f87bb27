// No import cycles in main/ other than type-only ones: esbuild's import graph (which drops type-only
// imports, as the bundle does) of every module under main/, searched for strongly connected components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../../helpers/host';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'vendor' ? [] : sources(p);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** main/'s runtime import graph: module -> the main/ modules it imports. */
export async function importGraph(): Promise<Map<string, string[]>> {
  const r = await build({
    entryPoints: sources(join(ROOT, 'main')),
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    external: ['electron'],
    outdir: join(ROOT, 'dist', 'cycle-graph'),
    logLevel: 'silent',
    loader: { '.wgsl': 'text' },
  });
  const graph = new Map<string, string[]>();
  for (const [file, input] of Object.entries(r.metafile.inputs)) {
    if (!file.startsWith('main/')) continue;
    graph.set(file, input.imports.filter((i) => !i.external && i.path.startsWith('main/')).map((i) => i.path));
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one module (or a module importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('the cycle search finds a cycle where there is one (the check can fail)', () => {
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), [['a', 'b', 'c']]);
});

test('main/ has no import cycles other than type-only ones', { timeout: 120_000 }, async () => {
  const graph = await importGraph();
  assert.ok(graph.size > 100, `only ${graph.size} modules under main/ in the graph`);
  const found = cycles(graph);
  assert.deepEqual(found.map((c) => c.map((f) => relative('.', f))), [], `import cycles:\n${found.map((c) => c.join(' -> ')).join('\n')}`);
});
