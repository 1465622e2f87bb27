// The Runs view at scale in Debian's Chromium against browser mode with the real engine:
// 60 run folders written as the trainer leaves them (test/helpers/run-fixtures.ts: three benchmarks,
// two kinds, three-seed, one-seed, ablation and sweep groups). At 1366 px the table fits its width;
// groups read by their names (no ids, no time stamps), a one-seed group says "1 seed" with no ±; the
// filter drives the table, the differences, the Hyperparameters table and the parallel coordinates;
// a run picker finds runs by words of their data and kind, most recent first.
// Screenshot: test-results/screenshots/runs-scale.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { openPage, gotoView } from '../helpers/page';
import { writeRunFixtures, type FixtureRun } from '../helpers/run-fixtures';

let runs: FixtureRun[] = [];
const suite = browserSuite((host) => {
  runs = writeRunFixtures(host.workspace, 60);
});
const skip = suite.skip;

test('runs at scale: fits 1366 px, readable group names, the filter drives every panel, searchable run picker', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoView(page, 'Runs');
  await page.getByTestId('runs-shown').filter({ hasText: /^60 of 60 runs$/ }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="hparam-parcoords"] svg').waitFor({ timeout: 30_000 });

  // the table fits the window: no horizontal scroll at 1366 px
  const fit = await page.getByTestId('runs-table').evaluate((t: any) => ({ table: t.scrollWidth as number, wrap: t.parentElement.clientWidth as number }));
  assert.ok(fit.table <= fit.wrap, `runs table ${fit.table} px wide in a ${fit.wrap} px box`);

  // group names: no internal ids or random suffixes; one seed reads "1 seed" without ±
  const groupTitles = await page.locator('tr.group-row th').allTextContents();
  assert.ok(groupTitles.length >= 5, groupTitles.join(' | '));
  for (const t of groupTitles) assert.doesNotMatch(t, /mx0d|fx-\d{4}|0a1b2c3d/, t);
  assert.ok(groupTitles.includes('w8 (3 seeds)'), groupTitles.join(' | '));
  assert.ok(groupTitles.some((t) => /^grid-demo c0 \(2 seeds\)$/.test(t)), groupTitles.join(' | '));
  const single = page.locator('tr.group-row').filter({ hasText: /^single \(1 seed\)/ }).first();
  assert.match((await single.getByTestId('group-best').textContent()) ?? '', /^\d\.\d+$/, 'one seed: the mean alone');

  // the filter: table, differences, Hyperparameters and parallel coordinates all show the same runs
  await page.getByTestId('runs-search').fill('dataset:darcy model.kind=lino');
  const want = runs.filter((r) => r.benchmark === 'darcy' && r.kind === 'lino');
  await page.getByTestId('runs-shown').filter({ hasText: new RegExp(`^${want.length} of 60 runs$`) }).waitFor({ timeout: 10_000 });
  const rowIds = async (sel: string, prefix: string) => (await page.locator(sel).evaluateAll((els, p) => els.map((e) => (e as unknown as { dataset: { testid: string } }).dataset.testid.slice(p)), prefix.length)).sort();
  assert.deepEqual(await rowIds('[data-testid^="run-row-"]', 'run-row-'), want.map((r) => r.id).sort());
  assert.deepEqual(await rowIds('[data-testid^="hparam-row-"]', 'hparam-row-'), want.map((r) => r.id).sort());
  await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('[data-testid="hparam-parcoords"] .pc-line').length === n, want.length, { timeout: 10_000 });
  const diffs = await page.locator('[data-testid^="run-row-"] td.small').evaluateAll((els: any[]) => els.map((e) => String(e.textContent ?? '')));
  for (const d of diffs) assert.doesNotMatch(d, /data=|model\.kind=|batchSize=/, `differences among the filtered runs only: ${d}`);
  await page.screenshot({ path: `${SHOTS}/runs-scale.png`, fullPage: false });
  await page.getByTestId('runs-search').fill('');

  // a run picker: words of the data and the kind, the most recent first
  await gotoView(page, 'Fields');
  await page.getByTestId('run-picker-search').fill('navier fno');
  const offered = await page.getByTestId('run-picker').locator('option:not([disabled])').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
  const match = runs.filter((r) => r.benchmark === 'navier-stokes' && r.kind === 'fno').map((r) => r.id);
  assert.deepEqual([...offered].sort(), [...match].sort());
  assert.deepEqual(offered, [...match].reverse(), 'the most recent first');
  assert.deepEqual(problems, []);
});
