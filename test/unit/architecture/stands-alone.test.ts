// The repository stands alone: no tracked file cites a path outside it (a clone has none of them),
// and what the reproduction shows as its source is the paper, not a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/host';
import { PUBLISHED_SOURCE } from '../../../main/api/published';

// Built from pieces so this file does not match itself.
const OUTSIDE = new RegExp(['(^|[^A-Za-z0-9_.-])(\\.\\./)*shared/(spec|paper)', '/wo' + 'rk/'].join('|'));

test('no tracked file cites a path outside the repository', { skip: gitMissing() }, () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => /\.(ts|tsx|mjs|js|py|md|sh|json|yml|html|css)$/.test(f));
  const found = files.flatMap((f) => {
    let text: string;
    try { text = readFileSync(join(ROOT, f), 'utf8'); } catch { return []; }
    return text.split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : []));
  });
  assert.deepEqual(found, [], 'cite docs/protocol.md (the paper and the release gathered in the repo) instead');
});

test("the reproduction's footnote names the paper, not a path", () => {
  assert.match(PUBLISHED_SOURCE, /Light-inspired Neural Operator/);
  assert.doesNotMatch(PUBLISHED_SOURCE, /\/|\.md\b|\.tex\b/);
});

function gitMissing(): string | false {
  try { execFileSync('git', ['rev-parse', '--git-dir'], { cwd: ROOT, stdio: 'ignore' }); return false; } catch { return 'not a git checkout: no list of tracked files'; }
}
