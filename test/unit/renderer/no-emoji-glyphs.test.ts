// The views draw with the fonts Debian's Chromium has, and it has no colour emoji font: an emoji
// (the file browser's folder and file icons were U+1F4C1 and U+1F4C4) renders as an empty box.
// Icons are inline SVG instead; this keeps emoji out of every renderer source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '../../../renderer');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'dist') return [];
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(tsx?|css|html)$/.test(n) ? [p] : [];
  });
}

test('no renderer source draws an emoji (they render as empty boxes without an emoji font)', () => {
  const found: string[] = [];
  for (const f of sources(root)) {
    readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      const m = line.match(/\p{Emoji_Presentation}/u);
      if (m && !/^\d$/.test(m[0])) found.push(`${relative(root, f)}:${i + 1}: U+${m[0].codePointAt(0)!.toString(16).toUpperCase()}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the file browser draws its folder and file icons as inline SVG', () => {
  const src = readFileSync(join(root, 'src/components/file-browser.tsx'), 'utf8');
  assert.match(src, /<svg className="entry-icon"/);
  assert.match(src, /<EntryIcon kind=\{e\.kind\} \/>/);
});
