// exports.save on the host side: safe names, no overwrite, atomic write, size cap, contract refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, EXPORT_MAX_BYTES, parseParams } from '../../../main/api/contract';
import { safeExportName, saveExportFile } from '../../../main/services/exports';
import { tempDir } from '../../helpers/env';

test('names: path separators refused, odd characters replaced, extension follows the MIME type', () => {
  assert.throws(() => safeExportName('../evil.svg', 'image/svg+xml'), (e: unknown) => e instanceof ApiError && e.details.field === 'name' && /path separator/.test(e.message));
  assert.throws(() => safeExportName('a\\b.svg', 'image/svg+xml'), /path separator/);
  assert.equal(safeExportName('Loss curve (run 3).svg', 'image/svg+xml'), 'Loss_curve_run_3_.svg');
  assert.equal(safeExportName('..hidden', 'application/pdf'), 'hidden.pdf');
  assert.equal(safeExportName('table.csv', 'text/csv'), 'table.csv');
  assert.equal(safeExportName('fig.png', 'application/pdf'), 'fig.png.pdf');
  assert.equal(safeExportName('§§§', 'text/csv'), 'export.csv');
  assert.throws(() => safeExportName('page.html', 'text/html'), (e: unknown) => e instanceof ApiError && e.details.field === 'mime');
});

test('saving writes the decoded bytes and never overwrites an earlier export', () => {
  const dir = tempDir();
  try {
    const data = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
    const a = saveExportFile(dir.path, 'fig.svg', 'image/svg+xml', data);
    const b = saveExportFile(dir.path, 'fig.svg', 'image/svg+xml', Buffer.from('<svg/>').toString('base64'));
    assert.deepEqual([a.name, b.name], ['fig.svg', 'fig-2.svg']);
    assert.equal(readFileSync(join(dir.path, 'fig.svg'), 'utf8'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    assert.equal(b.size, 6);
    assert.deepEqual(readdirSync(dir.path).sort(), ['fig-2.svg', 'fig.svg'], 'no temporary files left behind');
    assert.throws(() => saveExportFile(dir.path, 'empty.csv', 'text/csv', ''), /is empty/);
  } finally {
    dir.cleanup();
  }
});

test('the contract refuses separators, non-base64 data and data over the size cap before the host sees them', () => {
  assert.throws(() => parseParams('exports.save', { name: 'a/b.svg', mime: 'image/svg+xml', data: 'AAAA' }), /invalid parameter 'name'/);
  assert.throws(() => parseParams('exports.save', { name: '.bashrc', mime: 'text/plain', data: 'AAAA' }), /invalid parameter 'name'/);
  assert.throws(() => parseParams('exports.save', { name: 'x.svg', mime: 'image/svg+xml', data: 'not base64!' }), /invalid parameter 'data'/);
  const big = 'A'.repeat(Math.ceil(EXPORT_MAX_BYTES / 3) * 4 + 4);
  assert.throws(() => parseParams('exports.save', { name: 'x.png', mime: 'image/png', data: big }), /invalid parameter 'data'.*MiB/);
  assert.deepEqual(parseParams('exports.save', { name: 'x.png', mime: 'image/png', data: 'iVBORw==' }), { name: 'x.png', mime: 'image/png', data: 'iVBORw==' });
});
