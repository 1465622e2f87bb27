// The Reproduce view's table notes: no internal file paths; the grid the measured runs trained on
// where the table has no resolution column (a tiny Burgers run is not at the title's s = 256).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayNote } from '../../../renderer/src/queries/reproduce';
import { mainTable, type ArmRun } from '../../../main/reproduce/tables';
import { REPRODUCE_PRESETS } from '../../../main/reproduce/presets';

test('table notes show no internal paths', () => {
  assert.equal(displayNote('reported rows: LiNO paper (Tables 1-3, Figs. 3-6) via notes/protocol.md'), 'reported rows: LiNO paper (Tables 1-3, Figs. 3-6)');
  assert.equal(displayNote('see docs/reproduction.md for details'), 'for details');
  assert.equal(displayNote('inputs at another resolution are normalized with the training statistics'), 'inputs at another resolution are normalized with the training statistics');
});

test('the main table says the grid the measured runs trained on, and no note of it names a path', () => {
  const p = REPRODUCE_PRESETS.find((x) => /s = 256/.test(x.title))!;
  const run = { arm: p.arms[0]!.key, label: p.arms[0]!.label, kind: p.arms[0]!.model.kind, seed: 42, runId: 'r', epochs: 1, bestEpoch: 1, relL2: 0.1, relL2Decoded: 0.1, secondsPerEpoch: 1, estimateBytes: 0, params: 10, grid: [64] } as ArmRun;
  const t = mainTable(p, 'tiny', [run]);
  assert.ok(t.notes.includes('measured rows trained at s = 64 (the tiny size)'), t.notes.join(' | '));
  for (const n of t.notes.map(displayNote)) assert.doesNotMatch(n, /\/[\w.-]+\.(md|ts|json)/, n);
});

test('the export folder is named inside the workspace ("exports/…"), not by its absolute path (the closing walk read the whole temporary path)', async () => {
  const { workspaceRelative } = await import('../../../renderer/src/queries/reproduce');
  assert.equal(workspaceRelative('/home/u/LiNO-Workbench/exports/reproduce-burgers-tiny', '/home/u/LiNO-Workbench'), 'exports/reproduce-burgers-tiny');
  assert.equal(workspaceRelative('/home/u/LiNO-Workbench/exports/x', '/home/u/LiNO-Workbench/'), 'exports/x');
  assert.equal(workspaceRelative('C:\\ws\\exports\\x', 'C:\\ws'), 'exports\\x');
  assert.equal(workspaceRelative('/home/u/LiNO-Workbench2/exports/x', '/home/u/LiNO-Workbench'), '/home/u/LiNO-Workbench2/exports/x', 'a sibling folder is not inside');
  assert.equal(workspaceRelative('/elsewhere/out', null), '/elsewhere/out');
});
