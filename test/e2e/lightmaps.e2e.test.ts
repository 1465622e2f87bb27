// End to end for the Light maps view (issue 14) in Chromium against browser mode with the real
// engine: a tiny LiNO run on a tiny generated Darcy set (12² grid) trained here; the view draws
// each map equal to runs.lightMaps' arrays (fieldZ orientation), the depth strip on one colour
// range, and a click on a map point draws that point's scattering kernel with the point marked.
// Screenshot: test-results/screenshots/lightmaps.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { JobSummary, LightMapsResult, RunSummary } from '../../main/api/contract';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { openPage as openSessionPage, gotoView } from '../helpers/page';
import { assertAccessible } from '../helpers/axe';

const DATA = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2, resolution: 12 } as const;
let runId = '';

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
});
const skip = suite.skip;

/** The drawn traces' z (heatmaps, rows as arrays) and x/y (markers) under a test id. */
interface DrawnTrace { type: string; name?: string; z: number[][] | null; zmin: number; zmax: number; x: number[] | null; y: number[] | null }
function drawn(page: Page, testId: string): Promise<DrawnTrace[] | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?._fullLayout) return null;
    return el.data.map((t: any) => ({ type: t.type as string, name: t.name as string | undefined, z: t.z ? t.z.map((r: any) => Array.from(r)) as number[][] : null, zmin: t.zmin as number, zmax: t.zmax as number, x: t.x ? Array.from(t.x) as number[] : null, y: t.y ? Array.from(t.y) as number[] : null }));
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

test('light maps view: maps equal runs.lightMaps, depth strip on one range, a click draws the point\'s kernel', { skip, timeout: 180_000 }, async () => {
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
  assert.deepEqual(problems, []);
  await page.close();
});
