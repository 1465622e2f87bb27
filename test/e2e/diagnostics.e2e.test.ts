// End to end for the Diagnostics view in Chromium against browser mode with the real engine: a tiny
// LiNO run on a tiny generated Darcy set (29² grid, solved on that grid) trained here; the view
// evaluates it with diagnostics and draws the error and truth spectra equal to the kept result's,
// the band table, the Darcy residual of prediction and truth, and the branch spectra (one line per
// block and branch), overlays a second (FNO) run's error spectrum, and times the solver and the run (error against time per sample, log-log). Screenshot: test-results/screenshots/diagnostics.png.
// A second test trains a tiny Burgers and a tiny Navier-Stokes FNO run and draws their benchmarks'
// cost figures (the solver at half, once, twice (Burgers: and four times) the run's grid; the run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EvaluationResult, RunSummary } from '../../main/api/contract';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { openPage as openSessionPage, gotoView } from '../helpers/page';
import { assertAccessible } from '../helpers/axe';
import { trainedId } from '../helpers/trained-run';

const DATA = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2 } as const;
let runId = '';
let fnoId = '';

const suite = browserSuite(async (host) => {
  const call = (m: string, p: unknown) => host.service.call(m as never, p as never) as Promise<unknown>;
  runId = ((await call('train.start', { config: { name: 'diagnostics e2e', data: DATA, model: { width: 4, depth: 2 }, epochs: 1, batchSize: 2 } })) as { runId: string }).runId;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    const r = ((await call('runs.list', {})) as RunSummary[]).find((x) => x.id === runId);
    if (r && ['done', 'failed', 'stopped'].includes(r.state)) {
      assert.equal(r.state, 'done', r.reason);
      break;
    }
    if (Date.now() - t0 > 150_000) throw new Error('timed out training');
  }
  fnoId = ((await call('train.start', { config: { name: 'diagnostics e2e fno', data: DATA, model: { kind: 'fno', width: 4, depth: 1, modes: 4 }, epochs: 1, batchSize: 2 } })) as { runId: string }).runId;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    const r = ((await call('runs.list', {})) as RunSummary[]).find((x) => x.id === fnoId);
    if (r && ['done', 'failed', 'stopped'].includes(r.state)) {
      assert.equal(r.state, 'done', r.reason);
      break;
    }
    if (Date.now() - t0 > 150_000) throw new Error('timed out training the fno run');
  }
});

interface DrawnTrace { name?: string; y: (number | null)[] | null; z: number[][] | null }
function drawn(page: Page, testId: string): Promise<DrawnTrace[] | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?._fullLayout) return null;
    return el.data.map((t: any) => ({ name: t.name, y: t.y ? Array.from(t.y) : null, z: t.z ? t.z.map((r: any) => Array.from(r)) : null }));
  }, testId);
}
async function waitDrawn(page: Page, testId: string, ok: (d: DrawnTrace[]) => boolean): Promise<DrawnTrace[]> {
  for (const t0 = Date.now(); Date.now() - t0 < 90_000; await page.waitForTimeout(200)) {
    const d = await drawn(page, testId);
    if (d && ok(d)) return d;
  }
  throw new Error(`${testId} not drawn as expected: ${JSON.stringify(await drawn(page, testId))?.slice(0, 400)}`);
}

test('diagnostics view: spectra, bands, Darcy residual beside the truth\'s, branch spectra', { skip: suite.skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Diagnostics');
  await page.getByTestId('run-picker').selectOption(runId);
  await page.getByTestId('diagnostics-evaluate').click();
  const spec = await waitDrawn(page, 'diagnostics-spectrum', (d) => d.length === 2 && (d[0]?.y?.length ?? 0) > 0);
  const kept = (await suite.host.service.call('runs.evaluation', { id: runId, checkpoint: 'best', split: 'val', diagnostics: true } as never)) as EvaluationResult;
  const s = kept.resolutions[0]!.diagnostics!.spectrum!;
  assert.deepEqual(spec.map((t) => t.name), ['truth', 'error']);
  const want = (v: number[]) => v.map((x) => (x > 0 ? x : null));
  assert.deepEqual(spec[0]!.y, want(s.mean.truth));
  assert.deepEqual(spec[1]!.y, want(s.mean.error));
  const rows = await page.getByTestId('diagnostics-bands').locator('tr').allTextContents();
  assert.equal(rows.length, 3);
  assert.match(rows[0]!, new RegExp(`^low \\(0–3\\)${s.mean.fRmse.low!.toExponential(3).replace('+', '\\+')}`));
  const phys = kept.resolutions[0]!.diagnostics!.physics!;
  assert.match((await page.getByTestId('diagnostics-physics').textContent())!, new RegExp(`prediction ${phys.mean.prediction.toExponential(3).replace('+', '\\+')}, truth ${phys.mean.truth!.toExponential(3).replace('+', '\\+')}`));
  assert.ok(phys.mean.truth! < 1e-3, `solved on the stored grid: the truth's residual is at float32 rounding (${phys.mean.truth})`);
  const br = await waitDrawn(page, 'diagnostics-branches', (d) => d.length === 6);
  assert.deepEqual(br.map((t) => t.name), ['block 1 reflection', 'block 1 refraction', 'block 1 scattering', 'block 2 reflection', 'block 2 refraction', 'block 2 scattering']);
  // runs overlaid: the LiNO run (evaluated above) and the FNO run, one error line each beside the truth
  const boxes = page.getByTestId('diagnostics-compare-runs').getByRole('checkbox');
  assert.equal(await boxes.count(), 2);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByTestId('diagnostics-compare').click();
  const over = await waitDrawn(page, 'diagnostics-compare-plot', (d) => d.length === 3);
  assert.deepEqual(over.map((t) => t.name).sort(), ['error: diagnostics e2e (' + runId + ')', 'error: diagnostics e2e fno (' + fnoId + ')', 'truth'].sort());
  // accuracy against cost: the solver at 15, 29 and 57 (the reference) and this run at batch 1 and batched, log-log
  await page.getByTestId('diagnostics-cost').click();
  const cost = await waitDrawn(page, 'diagnostics-cost-plot', (d) => d.length === 2);
  assert.equal(cost[0]!.name, 'solver');
  assert.equal(cost[0]!.y!.length, 2, 'the 15 and 29 solves against the 57 one');
  assert.ok(cost[0]!.y!.every((v) => v !== null && v > 0));
  assert.equal(cost[1]!.name, `${runId} (lino)`);
  assert.equal(cost[1]!.y!.length, 2, 'batch 1 and batched');
  await page.screenshot({ path: join(SHOTS, 'diagnostics.png'), fullPage: true });
  await assertAccessible(page, 'Diagnostics view with an evaluation');
  assert.deepEqual(problems, []);
  await page.close();
});

test('diagnostics view: accuracy against cost for a Burgers and a Navier-Stokes run (their own solvers, log-log)', { skip: suite.skip, timeout: 300_000 }, async () => {
  const svc = suite.host.service;
  const burgers = await trainedId(svc, { name: 'cost e2e burgers', data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny', samples: 4, train: 3, val: 1 }, model: { kind: 'fno', width: 4, depth: 1, modes: 4 }, epochs: 1, batchSize: 2 }, 150_000);
  const ns = await trainedId(svc, { name: 'cost e2e ns', data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 6, tIn: 3, tOut: 3, train: 3, val: 1, resolution: 16 }, model: { kind: 'fno', width: 4, depth: 1, modes: 4 }, epochs: 1, batchSize: 2 }, 150_000);
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Diagnostics');
  const cases = [
    { id: burgers, heading: 'Accuracy against cost (Burgers)', solver: 3, caption: /reference: the 256-point solve/ },
    { id: ns, heading: 'Accuracy against cost (Navier–Stokes)', solver: 2, caption: /reference: the 32² solve, 3 frames rolled out from 3/ },
  ];
  for (const c of cases) {
    await page.getByTestId('run-picker').selectOption(c.id);
    await page.getByRole('heading', { name: c.heading }).waitFor({ timeout: 30_000 });
    await page.getByTestId('diagnostics-cost').click();
    const fig = await waitDrawn(page, 'diagnostics-cost-plot', (d) => d.length === 2 && d[1]!.name === `${c.id} (fno)`);
    assert.equal(fig[0]!.name, 'solver');
    assert.equal(fig[0]!.y!.length, c.solver, 'every coarser solve against the finest one');
    assert.ok(fig[0]!.y!.every((v) => v !== null && v > 0));
    assert.equal(fig[1]!.y!.length, 2, 'batch 1 and batched');
    assert.match((await page.getByTestId('diagnostics-cost-caption').textContent())!, c.caption);
  }
  await assertAccessible(page, 'Diagnostics view with a Navier-Stokes cost figure');
  assert.deepEqual(problems, []);
  await page.close();
});
