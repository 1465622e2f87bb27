// End to end for the names, columns and plots the first researcher's walk asked for (Debian's Chromium, browser mode, the real
// engine). Setup trains, through the service API the views use, a LiNO and an FNO on one tiny
// generated Darcy set and an FNO on tiny Navier–Stokes. Then: the SVG parallel coordinates draw in
// headless Chromium (no WebGL) and export as SVG; the Runs table's parameter count, wall time in
// seconds, kind-aware differences, filter and grouping; datasets by human name with a label; the
// Rollout picker offers only the Navier–Stokes run; a screenshot of every view in both themes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSummary, WorkspaceSummary } from '../../main/api/contract';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { sharedId } from '../helpers/trained-run';
import { KIND_RUNS } from '../helpers/standard-runs';
import type { TestHost } from '../helpers/host';
import { openPage, gotoView } from '../helpers/page';

const CONFIGS = { lino: KIND_RUNS.lino, fno: KIND_RUNS.fno, ns: KIND_RUNS.ns };
const ids = { lino: '', fno: '', ns: '' };
let listed: RunSummary[] = [];

// The kinds' runs, shared with the mixed-kinds test (trained once per test invocation).
const suite = browserSuite(async (host: TestHost) => {
  for (const k of Object.keys(CONFIGS) as (keyof typeof ids)[]) ids[k] = await sharedId(host.service, host.workspace, CONFIGS[k], 400_000);
  listed = (await host.service.call('runs.list', {})) as RunSummary[];
});
const skip = suite.skip;
const open = () => openPage(suite.browser.context, suite.host.host.url, { engineReady: true });

test('runs view: SVG parallel coordinates draw in headless Chromium and export as SVG; parameters, wall seconds, kind-aware differences, filter and grouping', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Runs');
  // Parallel coordinates: one line per finished run, no WebGL message.
  const pc = page.getByTestId('hparam-parcoords');
  await pc.locator('svg path.pc-line').nth(2).waitFor({ state: 'attached', timeout: 30_000 });
  assert.equal(await pc.locator('svg path.pc-line').count(), 3);
  assert.ok((await pc.locator('svg g.pc-axis').count()) >= 4, 'model, width, depth, … and the error');
  assert.doesNotMatch((await pc.textContent()) ?? '', /WebGL/);
  const drawnIds = (await pc.locator('svg path.pc-line').evaluateAll((els) => els.map((e) => (e as any).getAttribute('data-id') as string))).sort();
  assert.deepEqual(drawnIds, Object.values(ids).sort());
  const box = await pc.locator('svg').boundingBox();
  assert.ok(box && box.width > 300 && box.height > 200, `drawn at a real size: ${JSON.stringify(box)}`);
  const title = 'Configuration against best validation error';
  await page.getByRole('button', { name: `Export ${title} as SVG` }).click();
  const status = (await pc.getByTestId('export-status').filter({ hasText: /^Saved exports\// }).textContent({ timeout: 20_000 }))!;
  const svg = readFileSync(join(suite.host.workspace, 'exports', status.replace(/^Saved exports\//, '')), 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.match(/class="pc-line"/g) ?? []).length, 3);
  assert.ok(svg.includes('fill="#ffffff"'), 'exports use the light (print) theme');

  // Parameter count and wall time in seconds (no "min", no "s" in the cells).
  for (const k of ['lino', 'fno'] as const) {
    const row = page.getByTestId(`run-row-${ids[k]}`);
    const r = listed.find((x) => x.id === ids[k])!;
    assert.ok(typeof r.params === 'number' && r.params > 0, `${k}: params listed`);
    assert.equal(await row.getByTestId('run-params').textContent(), r.params!.toLocaleString('en-US'));
    for (const t of ['run-wall-time', 'run-train-time', 'run-queue-time']) assert.match((await row.getByTestId(t).textContent()) ?? '', /^(\d+(\.\d+)?|—)$/, `${k} ${t}`);
    assert.match((await row.getByTestId('run-train-time').textContent()) ?? '', /^\d+(\.\d+)?$/);
  }
  // Differences: the FNO lists its modes and kind, never LiNO's components or scattering.
  const diffOf = async (k: keyof typeof ids) => (await page.getByTestId(`run-row-${ids[k]}`).locator('td.small').first().textContent()) ?? '';
  const fnoDiff = await diffOf('fno');
  assert.match(fnoDiff, /model\.kind=fno/);
  assert.doesNotMatch(fnoDiff, /components|scattering/, fnoDiff);
  assert.match(await diffOf('lino'), /model\.components=reflection\+refraction\+scattering/);
  assert.doesNotMatch(await diffOf('lino'), /model\.modes/);
  assert.doesNotMatch(fnoDiff + (await diffOf('ns')), /data\.id=|-[0-9a-f]{12}/, 'data by name, not by hash');

  // Filter by a config field, then group by one.
  await page.getByTestId('runs-search').fill('model.kind=fno');
  await page.getByTestId('runs-shown').filter({ hasText: /^2 of \d+ runs$/ }).waitFor({ timeout: 10_000 });
  await page.getByTestId('runs-search').fill('');
  await page.getByTestId('runs-group-by').selectOption('config:model.kind');
  const buckets = await page.getByTestId('runs-bucket').locator('th').allTextContents();
  assert.deepEqual(buckets.map((b) => b.split(' (')[0]), ['model.kind = fno', 'model.kind = lino']);
  await page.getByTestId('runs-group-by').selectOption('dataset');
  const byData = await page.getByTestId('runs-bucket').locator('th').allTextContents();
  assert.equal(byData.length, 2, byData.join(' | '));
  assert.ok(byData.some((b) => /^data = Darcy · s = 12/.test(b)), byData.join(' | '));
  await page.getByTestId('runs-group-by').selectOption('');
  assert.deepEqual(problems, []);
  await page.close();
});

test('datasets by human name: the runs\' generated data listed as benchmark, resolution, samples and split; a label renames it everywhere; the hash only in details', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Datasets');
  const list = page.getByTestId('datasets-list');
  await list.waitFor({ timeout: 20_000 });
  const names = await list.getByRole('button').allTextContents();
  assert.ok(names.length >= 2, `the runs' generated sets are kept: ${names.join(' | ')}`);
  for (const n of names) assert.doesNotMatch(n, /-[0-9a-f]{12}/, `no hash in ${n}`);
  const darcy = list.getByRole('button', { name: /^Darcy · s = 12/ }).first();
  await darcy.click();
  const id = (await page.getByTestId('dataset-id').textContent())!;
  assert.match(id, /^darcy-[0-9a-f]{12}$/);
  await page.getByTestId('dataset-label').fill('coarse darcy');
  await page.getByTestId('dataset-label-save').click();
  await list.getByRole('button', { name: /^coarse darcy — Darcy · s = 12/ }).waitFor({ timeout: 10_000 });
  const ws = (await suite.host.service.call('workspace.get', {} as never)) as WorkspaceSummary;
  assert.equal(ws.datasets.find((d) => d.id === id)?.label, 'coarse darcy');
  // The Training view's data picker shows the same name.
  await gotoView(page, 'Training');
  const options = await page.locator('option').allTextContents();
  assert.ok(options.some((o) => o.startsWith('coarse darcy — Darcy')), options.join(' | '));
  assert.deepEqual(problems, []);
  await page.close();
});

test('rollout picker offers only the Navier–Stokes run', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Rollout');
  const picker = page.getByTestId('run-picker');
  await picker.locator(`option[value="${ids.ns}"]`).waitFor({ state: 'attached', timeout: 20_000 });
  const offered = await picker.locator('option:not([disabled])').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  assert.ok(offered.includes(ids.ns));
  assert.ok(!offered.includes(ids.lino) && !offered.includes(ids.fno), `Darcy runs not offered: ${offered.join(', ')}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('every view in both themes: a screenshot each under test-results/screenshots/, no page errors', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  // Every view the navigation offers (one registry: renderer/src/views/index.ts).
  const views = (await page.getByRole('navigation').getByRole('button').allTextContents()).map((t) => t.trim()).filter((t) => t && !/theme$/i.test(t));
  assert.ok(views.length >= 12, views.join(', '));
  for (const theme of ['light', 'dark'] as const) {
    const now = await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme);
    if (now !== theme) await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
    await page.waitForFunction((t) => (globalThis as any).document.documentElement.dataset.theme === t, theme);
    for (const v of views) {
      await gotoView(page, v);
      // Views that plot the selected run: the LiNO run (Gates and Light maps draw for it).
      if (['Training', 'Gates', 'Light maps'].includes(v) && (await page.getByTestId('run-picker').count()) > 0) await page.getByTestId('run-picker').selectOption(ids.lino).catch(() => {});
      await page.waitForTimeout(1200);
      await page.screenshot({ path: join(SHOTS, `view-${v.toLowerCase().replace(/\W+/g, '-')}-${theme}.png`), fullPage: true });
      const bg = await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.body).backgroundColor as string);
      const dark = /rgb\((\d+), (\d+), (\d+)\)/.exec(bg)!.slice(1).map(Number).reduce((a, b) => a + b, 0) < 200;
      assert.equal(dark, theme === 'dark', `${v} in ${theme}: body ${bg}`);
    }
  }
  assert.deepEqual(problems, []);
  await page.close();
});
