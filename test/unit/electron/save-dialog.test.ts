// The Electron save dialog's pure part (options) and exports.saveAs through the service with a
// host that has a save dialog (the dialog itself needs Electron and a display: not run here).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { saveDialogOptions } from '../../../electron/save-dialog';
import { WorkbenchService, type HostDialogs } from '../../../main/services/workbench-service';
import { isolateConfig, tempDir } from '../../helpers/env';

test('dialog options: the export\'s own name in the chosen folder, filtered to its type', () => {
  assert.deepEqual(saveDialogOptions('loss-20260101T000000Z.pdf', '/home/u/Documents', 'Save as'), {
    title: 'Save as',
    defaultPath: '/home/u/Documents/loss-20260101T000000Z.pdf',
    filters: [{ name: 'PDF document', extensions: ['pdf'] }, { name: 'All files', extensions: ['*'] }],
  });
  assert.equal(saveDialogOptions('darcy-raw-npy/coeff.npy', '/d').defaultPath, '/d/coeff.npy', 'only the file name, never the folder inside exports/');
  assert.deepEqual(saveDialogOptions('weird.xyz', '/d').filters[0], { name: '.xyz file', extensions: ['xyz'] });
  assert.deepEqual(saveDialogOptions('README', '/d').filters, [{ name: 'All files', extensions: ['*'] }]);
});

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
const dest = tempDir('lino-dest-');
after(() => {
  ws.cleanup();
  dest.cleanup();
  restore();
});
const noEngine = (() => {
  throw new Error('no engine in this test');
}) as never;

test('exports.saveAs copies an export to the path the dialog answers; cancel and browser mode answer null', async () => {
  const asked: { defaultName: string; title?: string }[] = [];
  let answer: string | null = join(dest.path, 'figure.svg');
  const dialogs: HostDialogs = { pickOpen: async () => null, pickSave: async (o) => (asked.push(o), answer) };
  const electron = new WorkbenchService({ host: 'electron', launcher: noEngine, workspace: ws.path, dialogs });
  writeFileSync(join(ws.path, 'exports', 'fig.svg'), '<svg/>');
  assert.deepEqual(await electron.call('exports.saveAs', { name: 'fig.svg' }), { path: join(dest.path, 'figure.svg') });
  assert.equal(readFileSync(join(dest.path, 'figure.svg'), 'utf8'), '<svg/>');
  assert.deepEqual(readdirSync(dest.path), ['figure.svg'], 'no temporary file left');
  assert.deepEqual(asked, [{ defaultName: 'fig.svg', title: 'Save fig.svg as' }]);
  answer = null;
  assert.equal(await electron.call('exports.saveAs', { name: 'fig.svg' }), null, 'cancelled');
  // A missing or foreign name is refused before any dialog opens.
  asked.length = 0;
  await assert.rejects(electron.call('exports.saveAs', { name: 'missing.svg' }), /no export 'missing.svg'/);
  await assert.rejects(electron.call('exports.saveAs', { name: '../workspace.json' }), /invalid parameter 'name'/);
  assert.deepEqual(asked, []);
  const browser = new WorkbenchService({ host: 'browser', launcher: noEngine, workspace: ws.path });
  assert.equal(await browser.call('exports.saveAs', { name: 'fig.svg' }), null);
});
