// LineFollower: complete lines only (a half-written line waits for its end), appends read as they
// come, a file rewritten shorter read again from its start, the final read at stop().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineFollower } from '../../../main/util/line-follower';

test('lines as they are appended; a torn line waits; a rewrite is read again; stop reads the rest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-follow-'));
  try {
    const path = join(dir, 'm.jsonl');
    writeFileSync(path, 'old\n');
    const seen: string[] = [];
    const f = new LineFollower(path, (l) => seen.push(l)); // from the current end: 'old' is not seen
    appendFileSync(path, 'a\nb');
    f.poll();
    assert.deepEqual(seen, ['a']);
    appendFileSync(path, '\n\nc\n');
    f.poll();
    assert.deepEqual(seen, ['a', 'b', 'c']);
    writeFileSync(path, 'x\n');
    f.poll();
    assert.deepEqual(seen, ['a', 'b', 'c', 'x']);
    appendFileSync(path, 'y\n');
    f.stop();
    assert.deepEqual(seen, ['a', 'b', 'c', 'x', 'y']);
    const missing = new LineFollower(join(dir, 'later.jsonl'), (l) => seen.push(l));
    writeFileSync(join(dir, 'later.jsonl'), 'z\n');
    missing.poll();
    assert.equal(seen.at(-1), 'z');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
