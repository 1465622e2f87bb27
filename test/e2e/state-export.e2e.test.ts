// The Datasets view's statistics and dataset export, PNG export at a chosen size and scale, the
// Export view (files, download, tables, axe), and workbench state (view, theme, selected run and
// dataset, a view's choice) restored after a reload and after the host restarts on the same
// workspace. Real host, real engine, Debian's Chromium; a tiny Darcy set and a two-seed group of
// tiny synthetic runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { DatasetStats, JobSummary, RunSummary } from '../../main/api/contract';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { assertAccessible } from '../helpers/axe';
import { RENDERER_DIR } from '../helpers/host';
import { startBrowserHost, type BrowserHost } from '../../main/hosts/browser/server';
import { WorkbenchService } from '../../main/services/workbench-service';
import { forkLauncher } from '../../main/services/engine-launcher';
import { uiStatePath } from '../../main/services/ui-state';
import { openPage as openSessionPage, gotoView } from '../helpers/page';

let datasetId = '';
let runs: RunSummary[] = [];

const suite = browserSuite(async (h) => {
  // A tiny dataset and a two-seed group of tiny runs, made through the API the views use.
  const events: JobSummary[] = [];
  const off = h.service.onEvent((e) => e.type === 'job' && events.push(e.job));
  const gen = (await h.service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny', samples: 8 })) as JobSummary;
  await h.service.call('train.start', {
    config: { name: 'state', group: 'state-g', data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2 },
    seeds: 2,
  });
  for (const t0 = Date.now(); Date.now() - t0 < 120_000; await new Promise((r) => setTimeout(r, 200))) {
    const g = events.filter((j) => j.id === gen.id).pop();
    if (g?.state === 'failed') throw new Error(`generation failed: ${g.error}`);
    if (g?.state === 'done') datasetId = (g.result as { id: string }).id;
    runs = (await h.service.call('runs.list', {})) as RunSummary[];
    if (datasetId && runs.length === 2 && runs.every((r) => r.state === 'done')) break;
  }
  off();
  assert.ok(datasetId, 'the dataset was generated');
  assert.deepEqual(runs.map((r) => r.state), ['done', 'done'], 'both runs trained');
});
const skip = suite.skip;

const openPage = (url: string) => openSessionPage(suite.browser.context, url);

const goto = gotoView;

test('datasets: channel statistics equal the API\'s, a heatmap exports as PNG at the chosen size × scale, the dataset exports as a job; the Export view lists and downloads them and exports the tables', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(suite.host.host.url);
  await goto(page, 'Datasets');
  await page.getByTestId('datasets-list').locator(`button[title="${datasetId}"]`).click();

  // Statistics: the table shows what datasets.stats answers, for the split chosen.
  const card = page.getByTestId('channel-stats');
  await card.getByTestId('stats-split').selectOption('val');
  const api = (await suite.host.service.call('datasets.stats', { id: datasetId, split: 'val' })) as DatasetStats;
  const row = card.getByTestId('stats-row-input-coeff');
  await row.waitFor({ timeout: 30_000 });
  for (const k of ['min', 'max', 'mean', 'std'] as const) {
    assert.equal(await row.locator(`[data-stat="${k}"]`).textContent(), api.x[0]![k]!.toPrecision(5), `coeff ${k}`);
  }
  const target = card.locator('[data-testid^="stats-row-target-"]');
  assert.equal(await target.locator('[data-stat="mean"]').textContent(), api.y[0]!.mean!.toPrecision(5), 'target mean');

  // PNG at 300 × 200, scale 3: the file's IHDR says 900 × 600.
  const input = page.getByTestId('preview-input');
  await input.locator('.js-plotly-plot .main-svg').first().waitFor({ timeout: 30_000 });
  await input.getByLabel('Width').fill('300');
  await input.getByLabel('Height').fill('200');
  await input.getByLabel('PNG scale').selectOption('3');
  await input.getByRole('button', { name: /as PNG$/ }).click();
  const status = input.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.png$/ });
  await status.waitFor({ timeout: 60_000 });
  const pngName = (await status.textContent())!.replace('Saved exports/', '');
  const png = readFileSync(join(suite.host.workspace, 'exports', pngName));
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [900, 600], 'IHDR: 300 × 200 at scale 3');

  // Dataset export: npy, as a job; its files appear in the Export view.
  const exp = page.getByTestId('dataset-export');
  await exp.getByTestId('export-format').selectOption('npy');
  await exp.getByTestId('dataset-export-start').click();
  await exp.getByTestId('dataset-export-done').waitFor({ timeout: 60_000 });
  await exp.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/datasets-stats-export.png` });
  await exp.getByRole('button', { name: 'Show in the Export view' }).click();
  await page.getByRole('heading', { name: 'Export', level: 1 }).waitFor();
  const table = page.getByTestId('exports-table');
  await table.locator(`[data-name="${datasetId}-raw-npy/coeff.npy"]`).waitFor({ timeout: 30_000 });
  await table.locator(`[data-name="${pngName}"]`).waitFor();
  const listed = await table.getByTestId('export-row').evaluateAll((rows) => rows.map((r) => (r as { getAttribute(n: string): string | null }).getAttribute('data-name')));
  assert.deepEqual([...listed].sort(), ((await suite.host.service.call('exports.list', {})) as { name: string }[]).map((e) => e.name).sort(), 'the view lists what exports.list answers');

  // Download (browser mode): the same bytes as the file in the workspace.
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await table.getByRole('button', { name: `Download ${pngName}` }).click();
  const d = await download;
  assert.equal(d.suggestedFilename(), pngName);
  assert.deepEqual(readFileSync((await d.path())!), png);

  // Tables: the runs table to LaTeX, the seed groups to CSV.
  const before = new Set(listed);
  await page.getByRole('button', { name: 'Export Runs table as LaTeX' }).click();
  await page.getByTestId('table-export-status').filter({ hasText: /Saved exports\/runs-table-.*\.tex$/ }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Export Seed groups as CSV' }).click();
  await page.getByTestId('table-export-status').filter({ hasText: /Saved exports\/seed-groups-.*\.csv$/ }).waitFor({ timeout: 30_000 });
  const added = ((await suite.host.service.call('exports.list', {})) as { name: string }[]).map((e) => e.name).filter((n) => !before.has(n));
  const tex = readFileSync(join(suite.host.workspace, 'exports', added.find((n) => n.endsWith('.tex'))!), 'utf8');
  assert.match(tex, /\\toprule[\s\S]*state \(seed 42\)[\s\S]*\\bottomrule/);
  const csv = readFileSync(join(suite.host.workspace, 'exports', added.find((n) => n.endsWith('.csv'))!), 'utf8').split('\r\n');
  assert.equal(csv[0], 'Group,Runs,Val relL2 (normalized) mean,Val relL2 (normalized) std,Val relL2 (decoded) mean,Val relL2 (decoded) std,Test relL2 (normalized)');
  const g = (await suite.host.service.call('runs.group', { group: 'state-g' })) as { valRelL2: { mean: number } };
  assert.equal(Number(csv[1]!.split(',')[2]), g.valRelL2.mean, 'the group mean at full precision');
  await table.locator(`[data-name="${added.find((n) => n.endsWith('.csv'))}"]`).waitFor({ timeout: 30_000 });

  await assertAccessible(page, 'Export view');
  const fit = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
  assert.ok(fit <= 1366, `Export view fits 1366 px (${fit})`);
  await page.screenshot({ path: `${SHOTS}/export.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

test('view, theme, selected run and dataset, and a view\'s choice come back after a reload and after the host restarts', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(suite.host.host.url);
  await goto(page, 'Training');
  // The picker starts on the newest run: choose the other one.
  const older = [...runs].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0]!;
  await page.getByTestId('run-picker').selectOption(older.id);
  await goto(page, 'Datasets');
  await page.getByTestId('datasets-list').locator(`button[title="${datasetId}"]`).click();
  await page.getByTestId('stats-split').selectOption('test');
  if ((await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme)) !== 'dark') await page.getByRole('button', { name: 'Dark theme' }).click();
  await goto(page, 'Runs');

  // Saved into the workspace (not the browser): wait for the debounced write.
  const saved = () => {
    try {
      return JSON.parse(readFileSync(uiStatePath(suite.host.workspace), 'utf8')).state;
    } catch {
      return null;
    }
  };
  const waitSaved = async () => {
    for (const t0 = Date.now(); Date.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 50))) {
      const s = saved();
      if (s?.view === 'runs' && s.theme === 'dark' && s.selectedRun === older.id && s.views?.['datasets.statsSplit'] === 'test') return;
    }
  };
  await waitSaved();
  assert.deepEqual(
    (({ view, theme, selectedRun, selectedDataset }) => ({ view, theme, selectedRun, selectedDataset }))(saved()),
    { view: 'runs', theme: 'dark', selectedRun: older.id, selectedDataset: datasetId },
  );
  const storage = await page.evaluate(() => ({ local: (globalThis as any).localStorage.length, session: (globalThis as any).sessionStorage.length }));
  assert.deepEqual(storage, { local: 0, session: 0 }, 'nothing in browser storage');

  const expectRestored = async (p: Page, where: string) => {
    await p.getByRole('heading', { name: 'Runs', level: 1 }).waitFor({ timeout: 30_000 });
    await p.waitForFunction(() => (globalThis as any).document.documentElement.dataset.theme === 'dark', undefined, { timeout: 10_000 });
    await goto(p, 'Training');
    await p.waitForFunction((id) => (globalThis as any).document.querySelector('[data-testid="run-picker"]')?.value === id, older.id, { timeout: 30_000 });
    await goto(p, 'Datasets');
    await p.getByTestId('sample-preview').waitFor({ timeout: 30_000 });
    assert.equal(await p.getByTestId('stats-split').inputValue(), 'test', `the statistics split (${where})`);
    await p.getByTestId("dataset-id").filter({ hasText: datasetId }).waitFor({ timeout: 10_000 });
    // Leave it as it was saved: the Runs view open.
    await goto(p, 'Runs');
    await waitSaved();
  };

  await page.reload();
  await expectRestored(page, 'after a reload');
  assert.deepEqual(problems, []);
  await page.close();

  // Restart: this host and its engine stop; a new one starts on the same workspace.
  await suite.host.host.close();
  await suite.host.service.dispose();
  const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: suite.host.workspace });
  let host: BrowserHost | null = null;
  try {
    host = await startBrowserHost({ service, staticDir: RENDERER_DIR });
    const second = await openPage(host.url);
    await expectRestored(second.page, 'after a host restart');
    // A damaged state file: the app starts on its defaults (never a blank screen), and the next change repairs the file.
    writeFileSync(uiStatePath(suite.host.workspace), '{"format":"lino-ui-state","version":1,"state":{"view":"ru');
    await second.page.reload();
    await second.page.getByRole('heading', { name: 'Workspace', level: 1 }).waitFor({ timeout: 30_000 });
    await second.page.getByTestId('workspace-path').filter({ hasText: suite.host.workspace }).waitFor({ timeout: 30_000 });
    await goto(second.page, 'Export');
    for (const t0 = Date.now(); Date.now() - t0 < 20_000 && saved()?.view !== 'export'; ) await new Promise((r) => setTimeout(r, 50));
    assert.equal(saved()?.view, 'export', 'the state file is repaired by the next change');
    assert.deepEqual(second.problems, []);
    await second.page.close();
  } finally {
    await host?.close();
    await service.dispose();
  }
});
