// End to end for the Diagnostics view in Chromium against browser mode with the real engine: a tiny
// LiNO run on a tiny generated Darcy set (29² grid, solved on that grid) trained here; the view
// evaluates it with diagnostics and draws the error and truth spectra equal to the kept result's,
// the band table, the Darcy residual of prediction and truth, and the branch spectra (one line per
// block and branch), overlays a second (FNO) run's error spectrum, and times the solver and the run (error against time per sample, log-log). Screenshot: test-results/screenshots/diagnostics.png.
// Then the diagnostics inside the other views, each new figure opened once: Fields (the sample's and the
// split's spectra, the Darcy residual maps, runs overlaid, the trust panel: no group, its button trains
// a seed group of the run, whose member then shows the std map), the Playground (a dataset sample's
// spectrum and residual maps), the Rollout (bands against step, the spectrum at the step, the vorticity
// residual per step and its maps, on the standard tiny Navier-Stokes run).
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
import { sharedId, trainedId } from '../helpers/trained-run';
import { standardRun } from '../helpers/standard-runs';

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

async function selectRun(page: Page, id: string): Promise<void> {
  await page.getByTestId('run-picker').selectOption(id);
}

test('diagnostics inside Fields, Playground and Rollout, and the trust panel', { skip: suite.skip, timeout: 400_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  const call = (m: string, p: unknown) => suite.host.service.call(m as never, p as never) as Promise<unknown>;
  // Fields: the shown sample's spectrum beside the validation mean's (error and truth each), its residual maps
  await gotoView(page, 'Fields');
  await selectRun(page, runId);
  await page.getByTestId('fields-evaluate').click();
  const spec = await waitDrawn(page, 'fields-spectrum-plot', (d) => d.length === 4);
  assert.match(spec[0]!.name!, /^error: sample \d+$/);
  assert.match(spec[2]!.name!, /^error: validation mean \(2 samples\)$/);
  assert.equal((await page.getByTestId('fields-spectrum-bands').locator('tr').count()), 2);
  await waitDrawn(page, 'fields-physics-map-prediction', (d) => (d[0]?.z?.length ?? 0) === 29);
  await waitDrawn(page, 'fields-physics-map-truth', (d) => (d[0]?.z?.length ?? 0) === 29);
  assert.match((await page.getByTestId('fields-physics-value').textContent())!, /prediction \d\.\d{3}e[-+]\d+, truth \d\.\d{3}e[-+]\d+/);
  // the trust panel: a run trained alone has no spread; its button trains the configuration with 3 seeds
  await page.getByTestId('trust-ask').click();
  await page.getByTestId('trust-no-group').waitFor({ timeout: 60_000 });
  assert.match((await page.getByTestId('trust-distance').textContent())!, /Distance to the training inputs/);
  await page.getByTestId('trust-train-group').click();
  let members: RunSummary[] = [];
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    members = ((await call('runs.list', {})) as RunSummary[]).filter((r) => r.group && r.name.startsWith('diagnostics e2e seeds'));
    if (members.length === 3 && members.every((r) => ['done', 'failed', 'stopped'].includes(r.state))) break;
    assert.ok(Date.now() - t0 < 200_000, `the seed group did not finish: ${JSON.stringify(members.map((r) => r.state))}`);
  }
  assert.deepEqual(members.map((r) => r.state), ['done', 'done', 'done']);
  await gotoView(page, 'Fields');
  await selectRun(page, members[0]!.id);
  await page.getByTestId('fields-evaluate').click();
  await waitDrawn(page, 'fields-spectrum-plot', (d) => d.length === 4);
  await page.getByTestId('trust-ask').click();
  const std = await waitDrawn(page, 'trust-spread-map', (d) => (d[0]?.z?.length ?? 0) === 29);
  assert.ok(std[0]!.z!.flat().some((v) => v > 0), 'three seeds predict differently');
  assert.match((await page.getByTestId('trust-spread').textContent())!, /The 3 seeds of group/);
  await page.getByTestId('fields-diagnostics').screenshot({ path: join(SHOTS, 'fields-diagnostics.png') });
  await page.getByTestId('trust-panel').screenshot({ path: join(SHOTS, 'trust-panel.png') });
  await assertAccessible(page, 'Fields view with its diagnostics and the trust panel');
  // compare mode: the LiNO and the FNO run on one sample, their error spectra overlaid (one truth)
  await selectRun(page, runId);
  await page.getByTestId('fields-mode-compare').click();
  await page.getByTestId(`compare-pick-${fnoId}`).check();
  await page.getByTestId('compare-evaluate').click();
  const over = await waitDrawn(page, 'compare-spectrum-plot', (d) => d.length === 3);
  assert.deepEqual(over.filter((t) => t.name!.startsWith('error: ')).map((t) => t.name).sort(), ['error: diagnostics e2e', 'error: diagnostics e2e fno']);
  assert.equal(over.filter((t) => t.name!.startsWith('truth: ')).length, 1, 'one truth for the runs on one sample');
  await waitDrawn(page, 'compare-spectrum-split-plot', (d) => d.length === 3);
  assert.equal(await page.getByTestId('compare-physics').locator('tr').count(), 2);
  await page.getByTestId('fields-mode-single').click();
  // Playground: a stored sample (with its truth): the prediction's spectrum and residual maps, live
  await gotoView(page, 'Playground');
  await selectRun(page, runId);
  await page.getByTestId('playground-sample-use').click();
  await waitDrawn(page, 'playground-spectrum-plot', (d) => d.length === 2);
  await waitDrawn(page, 'playground-physics-map-truth', (d) => (d[0]?.z?.length ?? 0) === 29);
  assert.match((await page.getByTestId('playground-physics-value').textContent())!, /truth \d\.\d{3}e/);
  await page.getByTestId('playground-diagnostics').screenshot({ path: join(SHOTS, 'playground-diagnostics.png') });
  // Rollout: the standard tiny Navier-Stokes run, per step
  const nsId = await sharedId(suite.host.service, suite.host.workspace, standardRun('navier-stokes', 'fno'));
  await gotoView(page, 'Rollout');
  await selectRun(page, nsId);
  await page.getByTestId('rollout-evaluate').click();
  const bands = await waitDrawn(page, 'rollout-band-steps', (d) => d.length === 6);
  assert.ok(bands.every((t) => t.y!.length === 2), 'two rollout steps');
  await waitDrawn(page, 'rollout-spectrum-plot', (d) => d.length === 4);
  await waitDrawn(page, 'rollout-equation-steps', (d) => d.length === 2);
  await waitDrawn(page, 'rollout-equation-map-prediction', (d) => (d[0]?.z?.length ?? 0) === 32);
  await page.getByTestId('rollout-diagnostics').screenshot({ path: join(SHOTS, 'rollout-diagnostics.png') });
  await assertAccessible(page, 'Rollout view with its diagnostics');
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
