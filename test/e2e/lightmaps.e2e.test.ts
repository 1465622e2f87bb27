// End to end for the Light maps view in Chromium against browser mode with the real
// engine: a tiny LiNO run on a tiny generated Darcy set (12² grid) trained here; the view draws
// each map equal to runs.lightMaps' arrays (fieldZ orientation), the depth strip on one colour
// range, and a click on a map point draws that point's scattering kernel with the point marked.
// Screenshot: test-results/screenshots/lightmaps.png. The correlation section computes the table
// with |grad a| as a job, equal to runs.lightMapsCorrelation's, and exports it as CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LIGHT_MAP_CORRELATED, LightMapsCorrelationResult, type JobSummary, type LightMapsResult, type RunSummary } from '../../main/api/contract';
import { formatNumber } from '../../main/api/table';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { sharedId } from '../helpers/trained-run';
import { standardRun } from '../helpers/standard-runs';
import { openPage as openSessionPage, gotoView } from '../helpers/page';
import { assertAccessible } from '../helpers/axe';

const DATA = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2, resolution: 12 } as const;
let runId = '';
let airfoilRun = '';

const suite = browserSuite(async (host) => {
  const call = (m: string, p: unknown) => host.service.call(m as never, p as never) as Promise<unknown>;
  runId = ((await call('train.start', { config: { name: 'lightmaps e2e', data: DATA, model: { width: 4, depth: 2 }, epochs: 1, batchSize: 2 } })) as { runId: string }).runId;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    const r = ((await call('runs.list', {})) as RunSummary[]).find((x) => x.id === runId);
    if (r && ['done', 'failed', 'stopped'].includes(r.state)) {
      assert.equal(r.state, 'done', r.reason);
      break;
    }
    if (Date.now() - t0 > 150_000) throw new Error(`timed out training: ${JSON.stringify(((await call('jobs.list', {})) as JobSummary[]).map((j) => j.state))}`);
  }
  // A run on the tiny airfoil set (its maps are drawn on the C-grid): the standard one, trained once
  // per test invocation and shared with the Playground tests.
  airfoilRun = await sharedId(host.service, host.workspace, standardRun('airfoil', 'lino'));
});
const skip = suite.skip;

/** The drawn traces' z (heatmaps, rows as arrays) and x/y (markers) under a test id. */
interface DrawnTrace { type: string; name?: string; z: number[][] | null; zmin: number; zmax: number; x: number[] | null; y: number[] | null; customdata: unknown[] | null }
function drawn(page: Page, testId: string): Promise<DrawnTrace[] | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?._fullLayout) return null;
    return el.data.map((t: any) => ({ type: t.type as string, name: t.name as string | undefined, z: t.z ? t.z.map((r: any) => Array.from(r)) as number[][] : null, zmin: t.zmin as number, zmax: t.zmax as number, x: t.x && !Array.isArray(t.x[0]) ? Array.from(t.x) as number[] : null, y: t.y && !Array.isArray(t.y[0]) ? Array.from(t.y) as number[] : null, customdata: t.customdata ? Array.from(t.customdata) : null }));
  }, testId);
}

/** The stored [nx, ny] row-major field as drawn: z[j][i] = values[i * ny + j] (fieldZ). */
const asDrawn = (v: number[], nx: number, ny: number) => Array.from({ length: ny }, (_, j) => Array.from({ length: nx }, (_, i) => v[i * ny + j]!));

function assertClose(a: number[][], b: number[][], what: string) {
  assert.equal(a.length, b.length, what);
  a.forEach((row, j) => row.forEach((v, i) => assert.ok(Math.abs(v - b[j]![i]!) <= 1e-6 * (1 + Math.abs(b[j]![i]!)), `${what} [${j}][${i}]: ${v} vs ${b[j]![i]}`)));
}

async function waitDrawn(page: Page, testId: string, ok: (d: DrawnTrace[]) => boolean) {
  for (const t0 = Date.now(); Date.now() - t0 < 60_000; await page.waitForTimeout(200)) {
    const d = await drawn(page, testId);
    if (d && ok(d)) return d;
  }
  throw new Error(`${testId} not drawn as expected: ${JSON.stringify(await drawn(page, testId))?.slice(0, 400)}`);
}

test('light maps view: maps equal runs.lightMaps, depth strip on one range, a click draws the point\'s kernel, overlay on the input', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Light maps');
  await page.getByTestId('run-picker').selectOption(runId);
  const api = (p: Record<string, unknown>) => suite.host.service.call('runs.lightMaps', { id: runId, checkpoint: 'best', split: 'val', ...p } as never) as Promise<LightMapsResult>;
  const want = await api({ sample: 0 });
  const [nx, ny] = want.grid as [number, number];
  assert.deepEqual(want.grid, [12, 12]);
  const map0 = await waitDrawn(page, 'lightmap-plot', (d) => d[0]?.z?.length === ny);
  assertClose(map0[0]!.z!, asDrawn(want.blocks[0]!.reflectionActivity!, nx, ny), 'block 0 reflection activity');
  const input = await waitDrawn(page, 'lightmap-input', (d) => d[0]?.z?.length === ny);
  assertClose(input[0]!.z!, asDrawn(want.input[0]!, nx, ny), 'input field');

  await page.getByTestId('lightmaps-block').selectOption('1');
  await page.getByTestId('lightmaps-kind').selectOption('contribution.scattering');
  const s1 = await waitDrawn(page, 'lightmap-plot', (d) => d[0]?.z?.[0]?.[0] === asDrawn(want.blocks[1]!.contribution.scattering!, nx, ny)[0]![0]);
  assertClose(s1[0]!.z!, asDrawn(want.blocks[1]!.contribution.scattering!, nx, ny), 'block 1 scattering contribution');

  // the depth strip: every block, one colour range over all of them
  await page.getByTestId('lightmaps-block').selectOption('all');
  await page.getByTestId('lightmaps-kind').selectOption('latentNorm');
  const strip = await waitDrawn(page, 'lightmap-plot', (d) => d.length === 2 && d[1]?.z?.length === ny && d[0]!.zmax === d[1]!.zmax);
  const all = want.blocks.flatMap((b) => b.latentNorm);
  strip.forEach((t, b) => {
    assertClose(t.z!, asDrawn(want.blocks[b]!.latentNorm, nx, ny), `strip block ${b} latent norm`);
    assert.deepEqual([t.zmin, t.zmax], [Math.min(...all), Math.max(...all)], 'one colour range across blocks');
  });

  // a click on cell (i, j) = (7, 4) of block 0's map picks the query point
  await page.getByTestId('lightmaps-block').selectOption('0');
  await waitDrawn(page, 'lightmap-plot', (d) => d.length === 1);
  const at = await page.evaluate(() => {
    const el = (globalThis as any).document.querySelector('[data-testid="lightmap-plot"] .js-plotly-plot');
    const fl = el._fullLayout;
    const box = el.getBoundingClientRect();
    return { x: box.left + fl.xaxis._offset + fl.xaxis.l2p(7), y: box.top + fl.yaxis._offset + fl.yaxis.l2p(4) };
  });
  await page.mouse.move(at.x, at.y);
  await page.mouse.click(at.x, at.y);
  await page.getByTestId('lightmaps-query').getByText('[7, 4]').waitFor({ timeout: 60_000 });
  const withQuery = await api({ sample: 0, query: [7, 4] });
  const k = await waitDrawn(page, 'lightmap-kernel', (d) => d[0]?.z?.length === ny);
  assertClose(k[0]!.z!, asDrawn(withQuery.blocks[0]!.kernel!.row, nx, ny), 'block 0 kernel row of [7, 4]');
  const mark = k.find((t) => t.name === 'query point')!;
  assert.deepEqual([mark.x, mark.y], [[7], [4]], 'the query point marked');
  await page.screenshot({ path: join(SHOTS, 'lightmaps.png'), fullPage: true });
  await assertAccessible(page, 'Light maps view with maps and a kernel');

  // the keyboard way: a typed query point draws its kernel the same
  await page.getByTestId('lightmaps-query-input').fill('2, 9');
  await page.getByTestId('lightmaps-query-input').press('Enter');
  await page.getByTestId('lightmaps-query').getByText('[2, 9]').waitFor({ timeout: 60_000 });
  const typed = await api({ sample: 0, query: [2, 9] });
  const k2 = await waitDrawn(page, 'lightmap-kernel', (d) => d.find((t) => t.name === 'query point')?.x?.[0] === 2);
  assertClose(k2[0]!.z!, asDrawn(typed.blocks[0]!.kernel!.row, nx, ny), 'block 0 kernel row of [2, 9]');
  // blocks are numbered from 1 in every text, as in the picker (the closing walk read "block 0" in the map's title and the query line)
  assert.match((await page.getByTestId('lightmap-plot').locator('.gtitle').first().textContent()) ?? '', /, block 1$/);
  await page.getByTestId('lightmaps-block').selectOption('all');
  await page.getByTestId('lightmaps-query').filter({ hasText: /^Query point \[2, 9\] \(kernel of block 1\)\.$/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('lightmaps-block').selectOption('0');

  // overlay: block 0's map half-transparent over the input in grey, in one panel
  await page.getByTestId('lightmaps-overlay').check();
  // (and the query point marked on top: on every map, the dominant branch's too)
  const over = await waitDrawn(page, 'lightmap-plot', (d) => d.length === 3 && d[1]?.z?.length === ny && d[2]?.name === 'query point');
  assert.deepEqual([over[2]!.x, over[2]!.y], [[2], [9]], 'the query point marked on the map');
  assertClose(over[0]!.z!, asDrawn(want.input[0]!, nx, ny), 'overlay: the input underneath');
  assertClose(over[1]!.z!, asDrawn(want.blocks[0]!.latentNorm, nx, ny), 'overlay: block 0 latent norm on top');
  assert.equal(await page.getByTestId('lightmap-input').count(), 0, 'no separate input panel in overlay');
  await page.getByTestId('lightmaps-overlay').uncheck();
  await page.getByTestId('lightmap-input').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('light maps of an airfoil run are drawn on its C-grid; a click on the mesh picks that node\'s kernel', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Light maps');
  await page.getByTestId('run-picker').selectOption(airfoilRun);
  const want = (await suite.host.service.call('runs.lightMaps', { id: airfoilRun, checkpoint: 'best', split: 'val', sample: 0 } as never)) as LightMapsResult;
  const [rows, cols] = want.grid as [number, number];
  assert.ok(want.mesh, 'the API gives the mesh');
  const map = await waitDrawn(page, 'lightmap-plot', (d) => d.some((t) => t.type === 'contourcarpet'));
  const filled = map.find((t) => t.type === 'contourcarpet')!;
  assert.equal(filled.z!.length, rows, 'one contour row per mesh row');
  const v = want.blocks[0]!.reflectionActivity!;
  for (const [r, c] of [[0, 0], [3, 17], [rows - 1, cols - 1]] as const) assert.ok(Math.abs(filled.z![r]![c]! - v[r * cols + c]!) < 1e-6, `node (${r}, ${c}) carries its value`);
  assert.ok(map.some((t) => t.type === 'carpet'), 'drawn on the mesh (a carpet), not an index heatmap');
  await waitDrawn(page, 'lightmap-input', (d) => d.some((t) => t.type === 'carpet'));
  // click the node under a hover marker of the map: that node's kernel, on the mesh, the node marked
  // a hover marker inside the focused view (nearest its upper right quarter, off the body)
  const hover = map.find((t) => t.type === 'scatter' && t.customdata)!;
  const at = await page.evaluate(([xs, ys]) => {
    const el = (globalThis as any).document.querySelector('[data-testid="lightmap-plot"] .js-plotly-plot');
    const fl = el._fullLayout;
    const [x0, x1] = fl.xaxis.range, [y0, y1] = fl.yaxis.range;
    const cx = x0 + 0.75 * (x1 - x0), cy = y0 + 0.75 * (y1 - y0);
    let best = -1;
    xs.forEach((x: number, i: number) => {
      if (x < x0 || x > x1 || ys[i] < y0 || ys[i] > y1) return;
      if (best < 0 || Math.hypot(x - cx, ys[i] - cy) < Math.hypot(xs[best] - cx, ys[best] - cy)) best = i;
    });
    const box = el.getBoundingClientRect();
    return best < 0 ? null : { x: box.left + fl.xaxis._offset + fl.xaxis.l2p(xs[best]), y: box.top + fl.yaxis._offset + fl.yaxis.l2p(ys[best]) };
  }, [hover.x!, hover.y!] as const);
  assert.ok(at, 'a mesh node inside the focused view');
  await page.mouse.move(at.x, at.y);
  await page.mouse.click(at.x, at.y);
  const shown = await page.getByTestId('lightmaps-query').textContent({ timeout: 60_000 });
  const q = /\[(\d+), (\d+)\]/.exec(shown ?? '')!;
  assert.ok(q, `a query node is shown: ${shown}`);
  const node = Number(q[1]) * cols + Number(q[2]);
  const k = await waitDrawn(page, 'lightmap-kernel', (d) => d.some((t) => t.type === 'contourcarpet') && d.some((t) => t.name === 'query point'));
  const mark = k.find((t) => t.name === 'query point')!;
  assert.deepEqual([mark.x, mark.y], [[want.mesh.x[node]], [want.mesh.y[node]]], 'the query node marked where it is on the mesh');
  await page.screenshot({ path: join(SHOTS, 'lightmaps-airfoil.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('light maps view: the correlation with |grad a| computes as a job, equals runs.lightMapsCorrelation and exports as CSV', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Light maps');
  await page.getByTestId('run-picker').selectOption(runId);
  const section = page.getByTestId('lightmaps-correlation');
  await section.getByTestId('lightmaps-correlation-compute').click();
  await section.getByTestId('lightmaps-correlation-table').waitFor({ timeout: 120_000 });

  // the same table straight from the API (another job on the same engine)
  const call = (m: string, p: unknown) => suite.host.service.call(m as never, p as never) as Promise<unknown>;
  const job = (await call('runs.lightMapsCorrelation', { id: runId, checkpoint: 'best', split: 'val' })) as JobSummary;
  let end: JobSummary | undefined;
  for (const t0 = Date.now(); !end; await new Promise((r) => setTimeout(r, 100))) {
    end = ((await call('jobs.list', {})) as JobSummary[]).find((j) => j.id === job.id && ['done', 'failed', 'cancelled'].includes(j.state));
    if (Date.now() - t0 > 60_000) throw new Error('timed out computing the correlation through the API');
  }
  assert.equal(end.state, 'done', end.error);
  const want = LightMapsCorrelationResult.parse(end.result);
  assert.deepEqual([want.samples, want.blocks.length], [DATA.val, 2]);
  assert.match((await section.getByTestId('lightmaps-correlation-samples').textContent())!, new RegExp(`^${DATA.val} samples \\(val, best checkpoint\\)`));
  const cell = want.blocks[1]!.maps.find((m) => m.map === 'reflectionActivity')!;
  const shown = section.getByTestId('correlation-1-reflectionActivity');
  assert.equal(Number(await shown.getAttribute('data-pooled')), cell.pooled, 'block 1 reflection activity: pooled r as the API');
  const fmt = (v: number | null) => (v === null ? 'NaN' : formatNumber(v, 3));
  assert.equal((await shown.textContent())!.replace(/\s+/g, ' ').trim(), `${fmt(cell.pooled)} (${fmt(cell.mean)} ± ${fmt(cell.std)})`);
  assert.equal(await section.locator('tbody tr').count(), 2, 'a row per block');

  // CSV: the CLI's layout (block, statistic, one column per map), the API's numbers at full precision
  const exportsDir = join(suite.host.workspace, 'exports');
  const before = new Set(readdirSync(exportsDir));
  await section.getByRole('button', { name: /^Export Light-map correlation .* as CSV$/ }).click();
  await section.getByTestId('table-export-status').filter({ hasText: /Saved exports\/.*\.csv$/ }).waitFor({ timeout: 30_000 });
  const csv = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !before.has(n) && n.endsWith('.csv'))!), 'utf8').trim().split('\r\n').map((l) => l.split(','));
  assert.deepEqual(csv[0], ['block', 'statistic', ...LIGHT_MAP_CORRELATED]);
  assert.deepEqual(csv.slice(1).map((r) => r.slice(0, 2).join()), ['0,pooled', '0,mean', '0,std', '1,pooled', '1,mean', '1,std']);
  want.blocks.forEach(({ block, maps }) => (['pooled', 'mean', 'std'] as const).forEach((st, i) => {
    const row = csv[1 + block * 3 + i]!;
    LIGHT_MAP_CORRELATED.forEach((k, j) => {
      const c = maps.find((m) => m.map === k);
      const v = row[2 + j];
      if (!c) assert.equal(v, '', `block ${block} ${k}: no such map`);
      else if (c[st] === null) assert.equal(v, 'NaN', `block ${block} ${k} ${st}`);
      else assert.equal(Number(v), c[st], `block ${block} ${k} ${st}`);
    });
  }));
  await assertAccessible(page, 'Light maps view with the correlation table');
  assert.deepEqual(problems, []);
  await page.close();
});
