// README states Node.js >= 20.19 for the workbench and names the packages that need Node >= 22.12
// (npm's EBADENGINE warnings on Node 20). The lock file's packages are checked against that list,
// so a new Node-22-only dependency cannot slip in unmentioned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, { engines?: { node?: string }; optional?: boolean }> };
const readme = readFileSync(new URL('README.md', root), 'utf8');
const setup = readFileSync(new URL('scripts/setup.mjs', root), 'utf8');

/** Whether an engines.node range admits Node 20.19 (the ranges npm packages use: ">=x", "^x || >=y", "18 || 20 || >=22"). */
function admits20(range: string): boolean {
  return range.split('||').some((part) => {
    const p = part.trim();
    const m = /^(>=|>|\^|~)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.x)?$/.exec(p);
    if (!m) return true; // not understood: not counted against
    const [maj, min] = [Number(m[2]), Number(m[3] ?? 0)];
    if (m[1] === '>=' || m[1] === '>') return maj < 20 || (maj === 20 && min <= 19);
    if (m[1] === '^' || m[1] === '~') return maj === 20 && min <= 19;
    return maj === 20;
  });
}

test('the packages that refuse Node 20 are the five README and setup name, nothing else', () => {
  const refusing = Object.entries(lock.packages)
    .filter(([path, p]) => path && p.engines?.node && !admits20(p.engines.node))
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
  const named = ['electron', '@electron/get', '@electron-internal/extract-zip', '@electron/rebuild', 'node-abi'];
  assert.deepEqual([...new Set(refusing)].sort(), [...named].sort(), `packages declaring a Node range without 20.19: ${refusing.join(', ')}`);
  for (const n of named) {
    assert.ok(readme.includes(`\`${n}\``), `README names ${n}`);
    assert.ok(setup.includes(n), `setup names ${n}`);
  }
  assert.match(readme, /Node\.js ≥ 20\.19/);
  assert.match(readme, /Node\.js ≥ 22\.12/);
  assert.deepEqual([admits20('>=22.12.0'), admits20('^20.17.0 || >=22.9.0'), admits20('18 || 20 || >=22'), admits20('>= 12.20.55')], [false, true, true, true]);
});
