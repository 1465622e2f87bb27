// End to end for runs of different model kinds side by side ("Runs, Fields (compare
// mode), Ablation tables and exports mix kinds freely"), in Debian's Chromium against browser mode
// with the real engine. Setup trains, through the service API the views use, a LiNO, an FNO and a
// DeepONet on the same tiny generated Darcy set (12²) and an FNO on tiny Navier–Stokes (16²).
// Then: the Runs table, overlay, hyperparameters (kind and each kind's own fields) and their LaTeX;
// the Fields view evaluates each kind and compares a LiNO and an FNO on one sample; Gates, Light
// maps and Ablation say a baseline has no light mechanisms; the Rollout view plays the FNO's
// rollout; the Export view's runs table lists every kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EvaluationResult, JobSummary } from '../../main/api/contract';
import { browserSuite } from '../helpers/browser-suite';
import { sharedId } from '../helpers/trained-run';
import { KIND_RUNS } from '../helpers/standard-runs';
import type { TestHost } from '../helpers/host';
import { openPage, gotoView } from '../helpers/page';

const CONFIGS = KIND_RUNS;
const ids = { lino: '', fno: '', deeponet: '', ns: '' };

// The kinds' runs, shared with the workflow-ui test (trained once per test invocation).
const suite = browserSuite(async (host: TestHost) => {
  for (const k of Object.keys(CONFIGS) as (keyof typeof ids)[]) ids[k] = await sharedId(host.service, host.workspace, CONFIGS[k], 300_000);
});
const skip = suite.skip;

const open = () => openPage(suite.browser.context, suite.host.host.url, { engineReady: true });

/** Plotly's data under a test id (what is drawn). */
function plotData(page: Page, testId: string): Promise<{ name?: string; type: string; y: number[]; z?: number[][]; dimensions?: { label: string; ticktext?: string[] }[] }[] | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?.data) return null;
    return el.data.map((d: any) => ({ name: d.name, type: d.type, y: Array.from(d.y ?? []), z: d.z ? d.z.map((r: any) => Array.from(r)) : undefined, dimensions: d.dimensions?.map((x: any) => ({ label: x.label, ticktext: x.ticktext })) }));
  }, testId);
}

/** Clicks an export bar's LaTeX button and returns the saved file's text. */
async function exportLatex(page: Page, title: string): Promise<string> {
  const bar = page.getByRole('group', { name: `Export ${title}` });
  await bar.getByRole('button', { name: `Export ${title} as LaTeX` }).click();
  const status = (await bar.getByTestId('table-export-status').filter({ hasText: /^Saved exports\// }).textContent({ timeout: 20_000 }))!;
  return readFileSync(join(suite.host.workspace, 'exports', status.replace(/^Saved exports\//, '')), 'utf8');
}

/** A LaTeX table's body row for a run name, split into cells. */
const texRow = (tex: string, name: string) => tex.split('\n').find((l) => l.startsWith(`${name} &`))?.replace(/\\\\\s*$/, '').split('&').map((c) => c.trim());

const lastEvaluation = async (runId: string): Promise<EvaluationResult> => {
  const jobs = ((await suite.host.service.call('jobs.list', {})) as JobSummary[]).filter((j) => j.kind === 'evaluate' && j.state === 'done' && (j.result as EvaluationResult).runId === runId);
  jobs.sort((a, b) => (a.endedAt ?? '').localeCompare(b.endedAt ?? ''));
  return jobs[jobs.length - 1]!.result as EvaluationResult;
};

test('runs view with a LiNO, an FNO and a DeepONet: the kind in the table, every curve overlaid, each kind\'s fields in the hyperparameters, both in LaTeX', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Runs');
  const kinds = { lino: 'LiNO', fno: 'FNO', deeponet: 'DeepONet', ns: 'FNO' };
  for (const [k, kind] of Object.entries(kinds)) assert.equal(await page.getByTestId(`run-row-${ids[k as keyof typeof ids]}`).getByTestId('run-model').textContent(), kind, k);
  for (const k of ['lino', 'fno', 'deeponet'] as const) await page.getByRole('checkbox', { name: `Overlay run ${CONFIGS[k].name}`, exact: true }).check();
  await page.waitForFunction(() => ((globalThis as any).document.querySelector('[data-testid="runs-overlay"] .js-plotly-plot')?.data?.length ?? 0) === 3, undefined, { timeout: 20_000 });
  const overlay = (await plotData(page, 'runs-overlay'))!;
  assert.deepEqual(overlay.map((t) => t.name), ['mix lino', 'mix fno', 'mix deeponet']);
  for (const t of overlay) assert.ok(t.y.length === 2 && t.y.every((v) => Number.isFinite(v) && v > 0), `${t.name}: two finite validation errors, got ${t.y.join(', ')}`);

  // Hyperparameters: the kind, FNO's modes and DeepONet's basis, blank where a kind has no such field.
  const cells = async (k: keyof typeof ids) => page.getByTestId(`hparam-row-${ids[k]}`).locator('td').allTextContents();
  const heads = (await page.getByTestId('hparam-table').locator('thead th').allTextContents()).map((h) => h.replace(/ [▲▼]$/, ''));
  const col = (label: string) => heads.indexOf(label) - 1; // the row's name is a th
  await page.getByTestId(`hparam-row-${ids.deeponet}`).waitFor({ timeout: 20_000 });
  const want = { lino: ['LiNO', '—', '—', 'efficient'], fno: ['FNO', '3', '—', '—'], deeponet: ['DeepONet', '—', '4', '—'] };
  for (const [k, w] of Object.entries(want)) {
    const c = await cells(k as keyof typeof ids);
    assert.deepEqual([c[col('model')], c[col('modes (FNO)')], c[col('basis p (DeepONet)')], c[col('scattering')]], w, k);
  }
  // The SVG parallel coordinates: the model axis lists each kind once.
  const modelTicks = page.getByTestId('hparam-parcoords').locator('g.pc-axis[data-key="model"] text.pc-tick');
  await modelTicks.nth(2).waitFor({ state: 'attached', timeout: 20_000 });
  assert.deepEqual(await modelTicks.allTextContents(), ['DeepONet', 'FNO', 'LiNO']);

  // LaTeX: the runs table and the hyperparameters with every kind.
  const runsTex = await exportLatex(page, 'Runs');
  for (const k of ['lino', 'fno', 'deeponet'] as const) assert.equal(texRow(runsTex, CONFIGS[k].name)?.[2], kinds[k], `${k} in ${runsTex}`);
  const hpTex = await exportLatex(page, 'Hyperparameters');
  assert.equal(texRow(hpTex, 'mix fno')?.[heads.indexOf('modes (FNO)')], '3', hpTex);
  assert.equal(texRow(hpTex, 'mix deeponet')?.[heads.indexOf('basis p (DeepONet)')], '4', hpTex);
  assert.deepEqual(problems, []);
  await page.close();
});

test('fields view: each kind evaluates its sample; compare mode puts a LiNO and an FNO on the same sample side by side', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Fields');
  for (const k of ['lino', 'fno', 'deeponet'] as const) {
    await page.getByTestId('run-picker').selectOption(ids[k]);
    await page.getByTestId('fields-evaluate').click();
    // The drawn prediction becomes this run's (fieldZ draws z[j][i] = field[i][j]).
    const t0 = Date.now();
    for (;;) {
      const ev = await lastEvaluation(ids[k]).catch(() => null);
      const pred = (await plotData(page, 'field-prediction'))?.[0]?.z;
      const f = ev?.resolutions[0]?.fields?.[0];
      const stored = pred?.[0]?.flatMap((_, i) => pred.map((row) => row[i]!));
      if (f && stored?.length === 144 && stored.every((v, i) => Math.abs(v - f.prediction[0]![i]!) <= 1e-6 * (1 + Math.abs(v)))) break;
      if (Date.now() - t0 > 40_000) throw new Error(`${k}: the drawn prediction never became the engine's (${stored?.length ?? 'none'} values drawn)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('fields-index').fill('1');
  await page.getByTestId('fields-mode-compare').click();
  // Runs on the same data are offered whatever their kind; the NS run is not.
  for (const k of ['fno', 'deeponet'] as const) await page.getByTestId(`compare-pick-${ids[k]}`).waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId(`compare-pick-${ids.ns}`).count(), 0);
  await page.getByTestId(`compare-pick-${ids.fno}`).check();
  await page.getByTestId('compare-evaluate').click();
  await page.getByTestId('compare-error-1').locator('.main-svg').first().waitFor({ timeout: 60_000 });
  const ev = await Promise.all([ids.lino, ids.fno].map(async (id) => (await lastEvaluation(id)).resolutions[0]!.fields!.find((f) => f.which === 'index' && f.index === 1)!));
  assert.deepEqual(ev[0]!.reference, ev[1]!.reference, 'the same sample of the same data');
  // Each error panel is |prediction − reference| of the run its title names (rows in the run list's order).
  const named: string[] = [];
  for (let i = 0; i < 2; i++) {
    const title = await page.evaluate((id) => (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`)?.layout?.title?.text as string, `compare-error-${i}`);
    const k = /^mix lino:/.test(title) ? 0 : /^mix fno:/.test(title) ? 1 : -1;
    assert.ok(k >= 0, `compare-error-${i} names a compared run: ${title}`);
    named.push(title);
    const err = (await plotData(page, `compare-error-${i}`))![0]!.z!;
    const drawnErr = err[0]!.flatMap((_, a) => err.map((row) => row[a]!));
    const want = ev[k]!.reference[0]!.map((v, j) => Math.abs(ev[k]!.prediction[0]![j]! - v));
    assert.ok(drawnErr.length === 144 && drawnErr.every((v, j) => Math.abs(v - want[j]!) <= 1e-6 * (1 + want[j]!)), `${title}: |prediction − reference| of that run`);
  }
  assert.deepEqual(named.map((t) => t.split(':')[0]).sort(), ['mix fno', 'mix lino'], 'both runs side by side');
  assert.ok(ev[0]!.prediction[0]!.some((v, j) => v !== ev[1]!.prediction[0]![j]), 'two different models');
  assert.deepEqual(problems, []);
  await page.close();
});

test('gates, light maps and ablation with an FNO or DeepONet run: a plain message that only LiNO has them, no error banner; LiNO runs still draw them', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Gates');
  for (const k of ['fno', 'deeponet'] as const) {
    await page.getByTestId('run-picker').selectOption(ids[k]);
    assert.match((await page.getByTestId('gates-not-lino').textContent()) ?? '', new RegExp(`^${CONFIGS[k].name}: ${k === 'fno' ? 'FNO' : 'DeepONet'} runs have no gates`));
    assert.equal(await page.getByTestId('gates-waiting').count(), 0);
  }
  // A LiNO run still draws its gates.
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('alpha-heatmap').locator('.main-svg').first().waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('gates-not-lino').count(), 0);

  await gotoView(page, 'Light maps');
  for (const k of ['fno', 'deeponet'] as const) {
    await page.getByTestId('run-picker').selectOption(ids[k]);
    assert.match((await page.getByTestId('lightmaps-not-lino').textContent()) ?? '', /runs have no light maps\. Only LiNO runs do/);
  }
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual([await page.getByTestId('lightmaps-error').count(), await page.getByTestId('lightmaps-kind').count(), await page.getByRole('alert').count()], [0, 0, 0]);

  await gotoView(page, 'Ablation');
  await page.getByTestId('run-picker').selectOption(ids.fno);
  assert.match((await page.getByTestId('ablation-not-lino').textContent()) ?? '', /FNO runs have no components to ablate/);
  assert.deepEqual([await page.getByTestId('ablation-launch').count(), await page.getByRole('alert').count()], [0, 0]);
  // A LiNO base run still plans its variants.
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('ablation-launch').waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('ablation-not-lino').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('rollout view plays an FNO run\'s rollout on tiny Navier–Stokes; the export view\'s runs table lists every kind', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await open();
  await gotoView(page, 'Rollout');
  await page.getByTestId('run-picker').selectOption(ids.ns);
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="rollout-steps"]')?.value === '3', undefined, { timeout: 20_000 });
  await page.getByTestId('rollout-evaluate').click();
  await page.getByTestId('rollout-info').waitFor({ timeout: 40_000 });
  const ev = await lastEvaluation(ids.ns);
  const f = ev.resolutions[0]!.fields![0]!;
  assert.equal(f.prediction.length, 3, 'three predicted frames');
  for (const id of ['rollout-reference', 'rollout-prediction', 'rollout-error']) {
    const d = (await plotData(page, id))!;
    assert.deepEqual([d[0]!.type, d[0]!.z!.length, d[0]!.z![0]!.length], ['heatmap', 16, 16], id);
  }
  await page.getByTestId('rollout-play').click();
  await page.getByTestId('rollout-step').filter({ hasText: /^t = 3 \/ 3$/ }).waitFor({ timeout: 10_000 });
  const z = (await plotData(page, 'rollout-prediction'))![0]!.z!;
  const shown = z[0]!.flatMap((_, i) => z.map((row) => row[i]!));
  assert.ok(shown.every((v, i) => Math.abs(v - f.prediction[2]![i]!) <= 1e-6 * (1 + Math.abs(v))), 'the last frame drawn is the FNO\'s step 3');

  await gotoView(page, 'Export');
  const tex = await exportLatex(page, 'Runs table');
  for (const [k, kind] of [['lino', 'LiNO'], ['fno', 'FNO'], ['deeponet', 'DeepONet'], ['ns', 'FNO']] as const) assert.equal(texRow(tex, CONFIGS[k].name)?.[2], kind, `${k} in ${tex}`);
  assert.deepEqual(problems, []);
  await page.close();
});
