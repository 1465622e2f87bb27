// The contract by area: main/api/methods/<area>.ts each hold one area's calls, spread into the one
// typed `methods` table. Each call sits in its area's module, no name is declared twice (a spread
// would silently keep the last), and a methods module imports only downward: the method spec and
// the records below it, never the contract or another area.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from '../../../main/api/contract';

const DIR = new URL('../../../main/api/methods/', import.meta.url).pathname;
const AREAS: Record<string, string[]> = {
  engine: ['host', 'engine', 'workspace', 'ui', 'settings'], files: ['files', 'exports'], jobs: ['jobs'], datasets: ['datasets'],
  runs: ['runs'], train: ['train', 'model', 'reproduce', 'cost'], sweeps: ['sweeps'], playground: ['playground'],
};

test('every call is declared once, in its area\'s module, and the modules import only downward', async () => {
  const seen = new Map<string, string>();
  for (const f of readdirSync(DIR).filter((n) => n.endsWith('.ts')).sort()) {
    const area = f.replace(/\.ts$/, '');
    assert.ok(AREAS[area], `${f}: an area of the contract`);
    const mod = (await import(join(DIR, f))) as Record<string, Record<string, unknown>>;
    const table = mod[`${area}Methods`]!;
    for (const name of Object.keys(table)) {
      assert.ok(!seen.has(name), `${name} declared in ${seen.get(name)} and ${f}`);
      seen.set(name, f);
      assert.ok(AREAS[area]!.includes(name.split('.')[0]!), `${name} belongs in another area than ${f}`);
    }
    const imports = [...readFileSync(join(DIR, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    for (const i of imports) assert.ok(i === 'zod' || (i.startsWith('../') && !/^\.\.\/(contract|methods\/)/.test(i) && !i.startsWith('./')), `${f} imports ${i}`);
  }
  assert.deepEqual([...seen.keys()].sort(), Object.keys(methods).sort(), 'the table is exactly the areas\' calls');
});
