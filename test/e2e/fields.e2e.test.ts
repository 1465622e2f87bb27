// End to end for the Fields view in Debian's Chromium against browser mode with the real engine:
// two tiny LiNO runs on the same tiny generated Darcy set (12² grid), any-index evaluation and the
// engine's message for an index out of range, a zoom in one panel applied to all, linked hover,
// the resolution sweep table (12² and 6²) and its CSV export, compare mode on one colour range,
// one sample of a stored Darcy set drawn the same way in Datasets and Fields (one orientation),
// a tiny airfoil stand-in set previewed on its curvilinear C-grid, and a transfer evaluation on data
// solved at the grid by the generator (the source select, the provenance caption). Screenshots:
// test-results/screenshots/fields.png, fields-compare.png, airfoil-mesh.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import type { DatasetSample, EvaluationResult, JobSummary, RunSummary } from '../../main/api/contract';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { assertAccessible } from '../helpers/axe';
import type { TestHost } from '../helpers/host';
import { openPage as openSessionPage, gotoView } from '../helpers/page';

const DATA = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2, resolution: 12 } as const;
/** Two Darcy runs (compare mode), then one on the airfoil set. */
const runIds: string[] = [];
let airfoilId = '';
/** A stored tiny Darcy set (29², 10 samples) and a run on it: one sample drawn in Datasets and in Fields. */
let darcyId = '';
let darcyRunId = '';

async function poll<T>(what: string, ms: number, f: () => Promise<T | undefined>): Promise<T> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 200))) {
    const v = await f();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

// Two runs on the same data (a LiNO and its variant without scattering) and a tiny airfoil set,
// made through the same API the views use while Chromium starts.
const suite = browserSuite(async (host: TestHost) => {
  const call = (m: string, p: unknown) => host.service.call(m as never, p as never) as Promise<unknown>;
  const gen = (await call('datasets.generate', { benchmark: 'airfoil', preset: 'tiny' })) as JobSummary;
  const genDarcy = (await call('datasets.generate', { benchmark: 'darcy', preset: 'tiny', samples: 10 })) as JobSummary;
  for (const [name, components] of [['fields A', undefined], ['fields B', ['reflection', 'refraction']]] as const) {
    const r = (await call('train.start', { config: { name, data: DATA, model: { width: 4, depth: 1, ...(components ? { components } : {}) }, epochs: 1, batchSize: 2 } })) as { runId: string };
    runIds.push(r.runId);
  }
  const g = await poll('airfoil generation', 120_000, async () => ((await call('jobs.list', {})) as JobSummary[]).find((j) => j.id === gen.id && ['done', 'failed', 'cancelled'].includes(j.state)));
  assert.equal(g.state, 'done', g.error);
  airfoilId = (g.result as { id: string }).id;
  // A tiny run on the airfoil set, for its fields on the mesh.
  const af = (await call('train.start', { config: { name: 'fields airfoil', data: { kind: 'dataset', id: airfoilId }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2 } })) as { runId: string };
  runIds.push(af.runId);
  const gd = await poll('darcy generation', 120_000, async () => ((await call('jobs.list', {})) as JobSummary[]).find((j) => j.id === genDarcy.id && ['done', 'failed', 'cancelled'].includes(j.state)));
  assert.equal(gd.state, 'done', gd.error);
  darcyId = (gd.result as { id: string }).id;
  darcyRunId = ((await call('train.start', { config: { name: 'fields stored darcy', data: { kind: 'dataset', id: darcyId }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2 } })) as { runId: string }).runId;
  runIds.push(darcyRunId);
  const runs = await poll('the runs to finish', 150_000, async () => {
    const l = (await call('runs.list', {})) as RunSummary[];
    return runIds.every((id) => l.find((r) => r.id === id && ['done', 'failed', 'stopped'].includes(r.state))) ? l : undefined;
  });
  for (const id of runIds) assert.equal(runs.find((r) => r.id === id)!.state, 'done', JSON.stringify(runs.find((r) => r.id === id)));
});
const skip = suite.skip;

const openPage = () => openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });

const goto = gotoView;

/** What Plotly drew under a test id: the first trace's heatmap facts, the axis ranges and shapes. */
function drawn(page: Page, testId: string) {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?._fullLayout) return null;
    const d = el.data[0];
    const fl = el._fullLayout;
    return {
      types: el.data.map((t: any) => t.type) as string[],
      rows: d.z?.length as number | undefined,
      cols: d.z?.[0]?.length as number | undefined,
      zmin: d.zmin as number,
      zmax: d.zmax as number,
      x: fl.xaxis.range.slice() as [number, number],
      y: fl.yaxis.range.slice() as [number, number],
      shapes: (el.layout.shapes ?? []).map((s: any) => [s.x0, s.x1, s.y0, s.y1]) as number[][],
    };
  }, testId);
}

/** A heatmap's drawn z (rows as arrays) and its axes' orientation and titles. */
function drawnField(page: Page, testId: string) {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    // Inline (no named helpers): the test runner's transform would wrap them in a __name the page lacks.
    return { z: el.data[0].z.map((r: any) => Array.from(r)) as number[][], yAutorange: el.layout.yaxis.autorange, fullYRange: el._fullLayout.yaxis.range.slice() as number[], fullXRange: el._fullLayout.xaxis.range.slice() as number[], titles: [el._fullLayout.xaxis.title.text, el._fullLayout.yaxis.title.text] as string[] };
  }, testId);
}

async function lastEvaluation(runId: string): Promise<EvaluationResult> {
  const jobs = (await suite.host.service.call('jobs.list', {})) as JobSummary[];
  const mine = jobs.filter((j) => j.kind === 'evaluate' && j.state === 'done' && (j.result as EvaluationResult).runId === runId);
  return mine[mine.length - 1]!.result as EvaluationResult;
}

test('fields view: resolution sweep (12² and 6²), any index and an out-of-range one, zoom and hover linked across the four panels', { skip, timeout: 300_000 }, async () => {
  const { page, problems } = await openPage();
  await goto(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(runIds[0]!);
  // The training grid (12²) and a coarser one for transfer, typed in (the checkboxes offer
  // coarser/finer grids once the training grid is known).
  await page.getByTestId('fields-res-text').fill('6');
  // Data at the other grids: solved by the generator by default (the runs' data are generated);
  // 6² is below the Darcy generator's smallest grid (8), so this evaluation resamples, and says so.
  assert.equal(await page.getByTestId('fields-source').inputValue(), 'solved');
  assert.equal(await page.getByTestId('fields-source-why').count(), 0);
  await page.getByTestId('fields-source').selectOption('resampled');
  await page.getByTestId('fields-evaluate').click();
  await page.getByTestId('fields-res-6').waitFor({ timeout: 60_000 });
  const sweep = page.getByTestId('sweep-table');
  await sweep.getByTestId('sweep-row-6×6').waitFor({ timeout: 60_000 });
  const ev = await lastEvaluation(runIds[0]!);
  assert.deepEqual(ev.resolutions.map((r) => r.grid), [[12, 12], [6, 6]]);
  const rows = await sweep.locator('tbody tr').evaluateAll((trs: any[]) => trs.map((tr) => Array.from(tr.children as ArrayLike<{ textContent: string | null }>, (c) => c.textContent)));
  assert.deepEqual(rows, ev.resolutions.map((r, i) => [r.grid.join('×'), i === 0 ? 'training' : 'transfer', r.origin, r.metrics.relL2.toPrecision(4), r.metrics.relL2Decoded.toPrecision(4), String(r.n)]));
  // Each grid says how its data were made (tiny Darcy is generated at s = 29, then resized).
  assert.deepEqual(ev.resolutions.map((r) => r.origin), ['resampled from s = 29 (the generated grid, interpolated)', 'resampled from s = 29 (the generated grid, interpolated)']);
  // The sweep exports to CSV at full precision.
  const exportsDir = join(suite.host.workspace, 'exports');
  const before = new Set(readdirSync(exportsDir));
  await page.getByRole('button', { name: /^Export Resolution sweep .* as CSV$/ }).click();
  await page.getByTestId('table-export-status').filter({ hasText: /Saved exports\/.*\.csv$/ }).waitFor({ timeout: 30_000 });
  const csv = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !before.has(n) && n.endsWith('.csv'))!), 'utf8').trim().split('\r\n');
  assert.equal(csv[0], 'Grid,Role,How the grid was made,relL2 (normalized),relL2 (decoded),Samples');
  assert.equal(csv[2], `6×6,transfer,"${ev.resolutions[1]!.origin}",${ev.resolutions[1]!.metrics.relL2},${ev.resolutions[1]!.metrics.relL2Decoded},${ev.resolutions[1]!.n}`);
  // The fields at the transfer grid.
  await page.getByTestId('fields-resolution').selectOption({ label: '6×6' });
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="field-reference"] .js-plotly-plot')?.data?.[0]?.z?.length === 6, undefined, { timeout: 30_000 });
  // The provenance on the figure: the grid, how its data were made, and the same sample as at 12²
  const kept = ev.resolutions[0]!.fields!.find((f) => f.which === 'median')!.index;
  await page.getByTestId('fields-provenance').filter({ hasText: new RegExp(`^s = 6, resampled from s = 29 \\(the generated grid, interpolated\\); validation sample ${kept} \\(source sample \\d+\\)$`) }).waitFor({ timeout: 30_000 });
  await page.getByTestId('fields-resolution').selectOption({ label: '12×12 (training)' });

  // Any index: sample 1 of the validation split, and the engine's message for one out of range.
  await page.getByTestId('fields-index').fill('1');
  await page.getByTestId('fields-index-show').click();
  await page.getByTestId('fields-info').filter({ hasText: /^validation sample 1, / }).waitFor({ timeout: 60_000 });
  const one = (await lastEvaluation(runIds[0]!)).resolutions[0]!;
  assert.match((await page.getByTestId('fields-info').textContent())!, new RegExp(`relL2 ${one.perSample.find((p) => p.index === 1)!.relL2.toPrecision(4)} \\(normalized\\)`));
  await page.getByTestId('fields-index').fill('7');
  await page.getByTestId('fields-index-show').click();
  await page.getByTestId('fields-index-error').filter({ hasText: /sample 7 asked for, the 'val' split at 12x12 has 2 samples \(0\.\.1\)/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId('fields-index').fill('1');
  await page.getByTestId('fields-index-show').click();
  await page.getByTestId('fields-info').filter({ hasText: /^validation sample 1, / }).waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('fields-index-error').count(), 0);

  // Linked zoom: a drag box in the input panel zooms every panel to the same ranges.
  const panels = ['field-input', 'field-reference', 'field-prediction', 'field-error'];
  const full = (await drawn(page, 'field-prediction'))!;
  const box = (await page.getByTestId('field-input').locator('.nsewdrag').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.4, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((w) => {
    const el = (globalThis as any).document.querySelector('[data-testid="field-error"] .js-plotly-plot');
    const r = el?._fullLayout?.xaxis?.range;
    return r && r[1] - r[0] < w * 0.8;
  }, full.x[1] - full.x[0], { timeout: 30_000 });
  const zoomed = await Promise.all(panels.map((p) => drawn(page, p)));
  for (const z of zoomed) {
    assert.deepEqual(z!.x, zoomed[0]!.x, 'one x range in every panel');
    assert.deepEqual(z!.y, zoomed[0]!.y, 'one y range in every panel');
  }
  assert.ok(zoomed[0]!.x[1] - zoomed[0]!.x[0] < (full.x[1] - full.x[0]) * 0.8, `zoomed in: ${zoomed[0]!.x} vs ${full.x}`);

  // Linked hover: the node under the pointer in the prediction panel is marked in all four.
  const pbox = (await page.getByTestId('field-prediction').locator('.nsewdrag').boundingBox())!;
  await page.mouse.move(pbox.x + pbox.width / 2, pbox.y + pbox.height / 2);
  await page.getByTestId('fields-hover').filter({ hasText: /^node \(x \d+, y \d+\): input [-\d.e]+, reference/ }).waitFor({ timeout: 30_000 });
  const marks = await Promise.all(panels.map(async (p) => (await drawn(page, p))!.shapes));
  assert.equal(marks[0]!.length, 2, 'a cross in the input panel');
  for (const m of marks) assert.deepEqual(m, marks[0], 'the same node in every panel');
  const [, x, y] = /node \(x (\d+), y (\d+)\)/.exec((await page.getByTestId('fields-hover').textContent())!)!.map(Number);
  assert.equal((marks[0]![1]![0]! + marks[0]![1]![1]!) / 2, x);
  assert.equal((marks[0]![0]![2]! + marks[0]![0]![3]!) / 2, y);
  await assertAccessible(page, 'Fields view (zoomed, hovered)');
  await page.getByTestId('fields-info').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/fields.png` });

  assert.deepEqual(problems, []);
  await page.close();
});

test('one field orientation: the same validation sample drawn in Datasets and in Fields has the same z array, y upward, axes x index / y index', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage();
  await goto(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(darcyRunId);
  if ((await page.getByTestId('fields-mode-single').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('fields-mode-single').click();
  await page.getByTestId('fields-index').fill('1');
  await page.getByTestId('fields-index-show').click();
  await page.getByTestId('fields-info').filter({ hasText: /^validation sample 1, / }).waitFor({ timeout: 60_000 });
  const fieldsRef = await drawnField(page, 'field-reference');
  const grid = (await lastEvaluation(darcyRunId)).resolutions[0]!.grid;
  const n = grid[1]!;
  // The same validation sample in Datasets: the same drawn array, the same orientation (y upward,
  // x across: the stored [x, y] field transposed), axes labelled x and y.
  const stored = (await lastEvaluation(darcyRunId)).resolutions[0]!.fields!.find((f) => f.which === 'index' && f.index === 1)!.reference[0]!;
  assert.deepEqual(fieldsRef.z[2]!.slice(0, 3), [stored[2]!, stored[n + 2]!, stored[2 * n + 2]!], 'Fields: z[y][x] = field[x][y]');
  await goto(page, 'Datasets');
  // the run's own dataset (others, such as the 12² one a run generated, are listed too)
  await page.getByTestId('datasets-list').getByRole('button', { name: new RegExp(`^Darcy · s = ${grid[0]}\\b`) }).first().click();
  await page.getByTestId('sample-index').fill('1');
  await page.waitForFunction(() => {
    const fig = (globalThis as any).document.querySelector('[data-testid="preview-target"]');
    return /sample 1 \(val\)/.test(fig?.querySelector('[role="img"]')?.getAttribute('aria-label') ?? '') && fig.querySelector('.js-plotly-plot')?.data?.[0]?.z?.length > 1;
  }, undefined, { timeout: 30_000 });
  await new Promise((r) => setTimeout(r, 300));
  const datasetsRef = await drawnField(page, 'preview-target');
  assert.deepEqual([datasetsRef.z.length, datasetsRef.z[0]!.length], [grid[1], grid[0]]);
  datasetsRef.z.flat().forEach((v, i) => assert.ok(Math.abs(v - fieldsRef.z.flat()[i]!) <= 1e-5 * (1 + Math.abs(v)), `z[${i}]: Datasets ${v} vs Fields ${fieldsRef.z.flat()[i]}`));
  assert.equal(datasetsRef.yAutorange, true);
  assert.equal(fieldsRef.yAutorange, true, 'y upward in both (never reversed)');
  assert.ok(datasetsRef.fullYRange[0]! < datasetsRef.fullYRange[1]!, `Datasets y range increases upward: ${datasetsRef.fullYRange}`);
  assert.deepEqual(datasetsRef.titles, ['x index', 'y index']);
  assert.deepEqual(fieldsRef.titles, ['x index', 'y index']);
  // Tight ranges: the panel's height follows its width, so the equal-aspect constraint draws the
  // grid without padding (it once ran x from -10 to 40 for 29 points)
  const extent = (k: number) => [-0.5, k - 0.5];
  for (const [axis, r, k] of [['x', fieldsRef.fullXRange, grid[0]!], ['y', fieldsRef.fullYRange, grid[1]!]] as const) {
    r.forEach((v, i) => assert.ok(Math.abs(v - extent(k)[i]!) <= 0.06 * k, `Fields ${axis} range ${r} for ${k} points (expected about ${extent(k)})`));
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('fields view, compare mode: the same sample from two runs on the same data in one grid, one colour range for fields and one for errors', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage();
  await goto(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(runIds[0]!);
  await page.getByTestId('fields-index').fill('1');
  await page.getByTestId('fields-mode-compare').click();
  // Which mode is on shows: aria-pressed, and a filled button (not only to screen readers).
  const modeLook = () => page.evaluate(() => ['single', 'compare'].map((m) => {
    const b = (globalThis as any).document.querySelector(`[data-testid="fields-mode-${m}"]`);
    return { pressed: b.getAttribute('aria-pressed'), bg: (globalThis as any).getComputedStyle(b).backgroundColor as string };
  }));
  const look = await modeLook();
  assert.deepEqual(look.map((l) => l.pressed), ['false', 'true']);
  assert.notEqual(look[1]!.bg, look[0]!.bg, `the active mode is drawn differently: ${JSON.stringify(look)}`);
  await page.getByTestId(`compare-pick-${runIds[1]!}`).check();
  assert.equal(await page.getByTestId(`compare-pick-${runIds[0]!}`).isChecked(), true);
  await page.getByTestId('compare-evaluate').click();
  await page.getByTestId('compare-error-1').locator('.main-svg').first().waitFor({ timeout: 90_000 });
  const ref = (await drawn(page, 'compare-reference'))!;
  const preds = [(await drawn(page, 'compare-prediction-0'))!, (await drawn(page, 'compare-prediction-1'))!];
  const errs = [(await drawn(page, 'compare-error-0'))!, (await drawn(page, 'compare-error-1'))!];
  assert.deepEqual([ref.rows, ref.cols], [12, 12]);
  for (const p of preds) assert.deepEqual([p.zmin, p.zmax], [ref.zmin, ref.zmax], 'predictions share the reference colour range');
  assert.deepEqual([errs[1]!.zmin, errs[1]!.zmax], [errs[0]!.zmin, errs[0]!.zmax], 'errors share one range');
  // The shared range spans every run's fields (each run evaluated sample 1 itself).
  const fields = await Promise.all(runIds.slice(0, 2).map(async (id) => (await lastEvaluation(id)).resolutions[0]!.fields!.find((f) => f.which === 'index' && f.index === 1)!));
  const all = [...fields[0]!.reference[0]!, ...fields.flatMap((f) => f.prediction[0]!)];
  assert.ok(Math.abs(ref.zmin - Math.min(...all)) < 1e-12 && Math.abs(ref.zmax - Math.max(...all)) < 1e-12, 'range = min/max over the reference and both predictions');
  const maxErr = Math.max(...fields.flatMap((f) => f.reference[0]!.map((v, i) => Math.abs(f.prediction[0]![i]! - v))));
  assert.ok(Math.abs(errs[0]!.zmax - maxErr) < 1e-12);
  await assertAccessible(page, 'Fields view, compare mode');
  await page.getByTestId('compare-info').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/fields-compare.png` });
  // Dark theme too, and the view fits 1366 px wide.
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await assertAccessible(page, 'Fields view, compare mode (dark theme)');
  const overflow = await page.evaluate(() => {
    const main = (globalThis as any).document.querySelector('main.content');
    return main.scrollWidth - main.clientWidth;
  });
  assert.ok(overflow <= 1, `Fields fits 1366 px wide (overflow ${overflow})`);
  await page.getByRole('button', { name: 'Light theme' }).click();
  assert.deepEqual(problems, []);
  await page.close();
});

test('datasets view: a tiny airfoil stand-in sample is drawn on its curvilinear C-grid (carpet + contourcarpet), not as an index heatmap', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage();
  await goto(page, 'Datasets');
  await page.getByTestId('datasets-list').getByRole('button', { name: /airfoil/i }).click();
  await page.getByTestId('preview-target').locator('.main-svg').first().waitFor({ timeout: 60_000 });
  // the preview draws once per sample fetch: wait for the mesh plot, not the first svg (an earlier draw)
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="preview-target"] .js-plotly-plot')?.data?.[0]?.type === 'carpet', undefined, { timeout: 60_000 });
  const s = (await suite.host.service.call('datasets.sample', { id: airfoilId, split: 'val', index: 0 })) as DatasetSample;
  assert.deepEqual(s.grid, [221, 51]);
  const mesh = await page.evaluate(() => {
    const el = (globalThis as any).document.querySelector('[data-testid="preview-target"] .js-plotly-plot');
    const [carpet, contour] = el.data;
    return { types: el.data.map((t: any) => t.type), x: carpet.x.map((r: any) => Array.from(r)), y: carpet.y.map((r: any) => Array.from(r)), z: contour.z.map((r: any) => Array.from(r)), carpet: contour.carpet === carpet.carpet };
  });
  assert.deepEqual(mesh.types, ['carpet', 'contourcarpet', 'scatter']);
  assert.ok(mesh.carpet, 'the contour lies on that carpet');
  assert.deepEqual([mesh.x.length, mesh.x[0]!.length], [221, 51], 'x: 2D node coordinates, one row per mesh row');
  const X = s.x.find((c) => c.name === 'X')!.values, Y = s.x.find((c) => c.name === 'Y')!.values;
  assert.deepEqual(mesh.x.flat(), X, 'x of every node is the sample\'s X channel');
  assert.deepEqual(mesh.y.flat(), Y);
  assert.deepEqual(mesh.z.flat(), s.y[0]!.values, 'the target (Mach) at its nodes');
  // A C-grid: the wall line's ends meet along the wake cut (row i and its mirror row coincide there).
  assert.ok(Math.hypot(mesh.x[0]![0]! - mesh.x[220]![0]!, mesh.y[0]![0]! - mesh.y[220]![0]!) < 1e-9);
  assert.ok(Math.hypot(mesh.x[110]![0]! - mesh.x[110]![50]!, mesh.y[110]![0]! - mesh.y[110]![50]!) > 5, 'rows run from the wall to the far field');
  await page.getByTestId('preview-input').locator('.main-svg').first().waitFor();
  assert.deepEqual((await drawn(page, 'preview-input'))!.types, ['carpet', 'scatter'], 'the input is the mesh itself');
  await assertAccessible(page, 'Datasets view with an airfoil sample');
  await page.getByTestId('preview-target').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/airfoil-mesh.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

test('fields view on an airfoil run: reference, prediction and |error| drawn on the C-grid given by the input channels, hover on mesh nodes linked', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage();
  await goto(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(runIds[2]!);
  // The mode chosen in the compare test is kept in the workspace's UI state: back to one run.
  assert.equal(await page.getByTestId('fields-mode-compare').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('fields-mode-single').click();
  await page.getByTestId('fields-evaluate').click();
  await page.getByTestId('field-error').locator('.main-svg').first().waitFor({ timeout: 60_000 });
  const ev = await lastEvaluation(runIds[2]!);
  assert.deepEqual(ev.resolutions[0]!.grid, [221, 51]);
  const f = ev.resolutions[0]!.fields!.find((x) => x.which === 'median')!;
  for (const id of ['field-reference', 'field-prediction', 'field-error']) {
    const t = await page.evaluate((i) => {
      const el = (globalThis as any).document.querySelector(`[data-testid="${i}"] .js-plotly-plot`);
      return { types: el.data.map((d: any) => d.type), x: el.data[0].x.map((r: any) => Array.from(r)), z: el.data[1].z.map((r: any) => Array.from(r)) };
    }, id);
    assert.deepEqual(t.types, ['carpet', 'contourcarpet', 'scatter'], id);
    assert.deepEqual([t.x.length, t.x[0]!.length], [221, 51]);
    assert.deepEqual(t.x.flat(), f.input[0], `${id}: nodes at the sample's X coordinates`);
    if (id === 'field-reference') assert.deepEqual(t.z.flat(), f.reference[0]);
  }
  assert.deepEqual((await drawn(page, 'field-input'))!.types, ['carpet', 'scatter'], 'the input panel draws the mesh');
  // Hovering the reference panel near the body marks that node in every panel.
  const box = (await page.getByTestId('field-reference').locator('.nsewdrag').boundingBox())!;
  for (let k = 0; k < 6 && !/^mesh node/.test((await page.getByTestId('fields-hover').textContent()) ?? ''); k++) {
    await page.mouse.move(box.x + box.width * (0.3 + 0.05 * k), box.y + box.height * 0.45, { steps: 3 });
    await new Promise((r) => setTimeout(r, 300));
  }
  await page.getByTestId('fields-hover').filter({ hasText: /^mesh node \d+ \(x -?[\d.]+, y -?[\d.]+\): input –, reference [-\d.e]+/ }).waitFor({ timeout: 30_000 });
  const marks = await Promise.all(['field-input', 'field-reference', 'field-prediction', 'field-error'].map(async (p) => (await drawn(page, p))!.shapes));
  assert.equal(marks[0]!.length, 2);
  for (const m of marks) assert.deepEqual(m, marks[0]);
  // The mesh plot exports like any other: SVG, and a vector PDF with the axis titles as text.
  const exportsDir = join(suite.host.workspace, 'exports');
  const status = page.getByTestId('field-reference').getByTestId('export-status');
  for (const fmt of ['SVG', 'PDF']) {
    const known = new Set(readdirSync(exportsDir));
    await page.getByRole('button', { name: `Export Reference field as ${fmt}` }).click();
    await status.filter({ hasText: new RegExp(`Saved exports/.*\\.${fmt.toLowerCase()}$`) }).waitFor({ timeout: 60_000 });
    const file = join(exportsDir, readdirSync(exportsDir).find((n) => !known.has(n) && n.endsWith(`.${fmt.toLowerCase()}`))!);
    const bytes = readFileSync(file);
    if (fmt === 'SVG') assert.match(bytes.toString('utf8'), /^<svg[\s\S]*class="contour[\s\S]*<\/svg>$/);
    else {
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
      const txt = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      if (txt.status === 0) assert.match(txt.stdout, /Reference/);
    }
  }
  await assertAccessible(page, 'Fields view, airfoil run');
  await page.getByTestId('fields-info').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/fields-airfoil.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

test('fields view: evaluate at another grid on data solved there by the generator; the caption says so, the coefficient stays binary, the median sample is kept', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage();
  await goto(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(darcyRunId);
  if ((await page.getByTestId('fields-mode-single').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('fields-mode-single').click();
  await page.getByTestId('fields-which').selectOption('median');
  await page.getByTestId('fields-source').selectOption('solved');
  await page.getByTestId('fields-res-text').fill('15');
  await page.getByTestId('fields-evaluate').click();
  await page.getByTestId('sweep-table').getByTestId('sweep-row-15×15').waitFor({ timeout: 90_000 });
  const ev = await lastEvaluation(darcyRunId);
  assert.equal(ev.resolutions[1]!.source, 'solved');
  const median = ev.resolutions[0]!.fields!.find((f) => f.which === 'median')!.index;
  await page.getByTestId('fields-resolution').selectOption({ label: '15×15' });
  await page.getByTestId('fields-provenance').filter({ hasText: new RegExp(`^s = 15, solved at s = 15 by the generator \\(darcy 'tiny', generator seed 0; \\d+ validation samples, the same sample indices as at s = 29\\); validation sample ${median} \\(source sample \\d+\\)$`) }).waitFor({ timeout: 30_000 });
  // the drawn input is the generator's binary coefficient at 15² (no blended interface values)
  const z = await page.evaluate(() => ((globalThis as any).document.querySelector('[data-testid="field-input"] .js-plotly-plot').data[0].z as ArrayLike<number>[]).map((r) => Array.from(r)).flat());
  assert.equal(z.length, 15 * 15);
  assert.ok(z.every((v) => Math.abs(v - 3) < 1e-3 || Math.abs(v - 12) < 1e-3), `non-binary input values: ${z.filter((v) => Math.abs(v - 3) >= 1e-3 && Math.abs(v - 12) >= 1e-3).slice(0, 4)}`);
  assert.deepEqual(problems, []);
  await page.close();
});
