// End to end for the Playground view in Debian's Chromium against browser mode with the
// real engine: a tiny Darcy LiNO trained in setup; a fresh GRF coefficient is drawn, a stroke is
// painted on it with the mouse, and the prediction and then the solver's truth redraw; the relL2
// shown equals `lino predict` on the saved one-sample dataset against its saved truth to 1e-5.
// Screenshot: test-results/screenshots/playground.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { JobSummary } from '../../main/api/contract';
import { trainedId } from '../helpers/trained-run';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { openPage, gotoView } from '../helpers/page';
import { assertAccessible } from '../helpers/axe';
import { predictSavedInput } from '../helpers/predict-saved';

let runId = '';

// A stored dataset (as the Datasets view makes them): the run then loads its data by reading it.
const suite = browserSuite(async (host) => {
  const gen = (await host.service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny', train: 4, val: 2 })) as JobSummary;
  let done: JobSummary | undefined;
  for (const t0 = Date.now(); !done; await new Promise((res) => setTimeout(res, 200))) {
    done = ((await host.service.call('jobs.list', {})) as JobSummary[]).find((j) => j.id === gen.id && ['done', 'failed', 'cancelled'].includes(j.state));
    if (Date.now() - t0 > 60_000) throw new Error('timed out generating the Darcy set');
  }
  assert.equal(done.state, 'done', done.error);
  runId = await trainedId(host.service, { name: 'e2e playground', model: { width: 8, depth: 1 }, batchSize: 2, epochs: 1, data: { kind: 'dataset', id: (done.result as { id: string }).id } });
});
const skip = suite.skip;

/** The heatmap drawn under a test id (Plotly's data on the graph div), or null before it is drawn. */
function drawn(page: Page, testId: string): Promise<number[][] | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    return el?.data?.[0]?.z ? el.data[0].z.map((r: any) => Array.from(r)) : null;
  }, testId);
}

async function changes(page: Page, testId: string, before: number[][] | null, what: string): Promise<number[][]> {
  for (const t0 = Date.now(); Date.now() - t0 < 30_000; await page.waitForTimeout(100)) {
    const z = await drawn(page, testId);
    if (z && JSON.stringify(z) !== JSON.stringify(before)) return z;
  }
  throw new Error(`${what} did not redraw`);
}

/** The Playground on the trained run with a freshly drawn coefficient. */
async function playgroundWithDrawnInput() {
  const opened = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  const { page } = opened;
  await gotoView(page, 'Playground');
  await page.getByTestId('run-picker').locator(`option[value="${runId}"]`).waitFor({ state: 'attached', timeout: 20_000 });
  await page.getByTestId('run-picker').selectOption(runId);
  await page.getByTestId('playground-draw').click();
  return opened;
}

test('playground: draw a Darcy coefficient, paint a stroke; prediction and truth update; relL2 equals lino predict on the saved dataset', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await playgroundWithDrawnInput();
  const pred0 = await changes(page, 'playground-prediction', null, 'the first prediction');
  const truth0 = await changes(page, 'playground-truth', null, 'the first truth');

  // a stroke of 12 with the mouse across the lower half of the canvas
  await page.getByTestId('playground-value-12').check();
  const box = (await page.getByTestId('playground-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let k = 1; k <= 10; k++) await page.mouse.move(box.x + box.width * (0.1 + 0.08 * k), box.y + box.height * 0.7);
  await page.mouse.up();
  const pred1 = await changes(page, 'playground-prediction', pred0, 'the prediction after painting');
  const truth1 = await changes(page, 'playground-truth', truth0, 'the truth after painting');
  assert.notDeepEqual(pred1, pred0);
  assert.notDeepEqual(truth1, truth0);
  await page.getByTestId('playground-error').waitFor();
  await page.getByTestId('playground-distance').waitFor();
  await assertAccessible(page, 'Playground view with a painted input');

  // the relL2 shown (of the painted input, once its truth is in) against lino predict on the saved pair
  const text = async () => (await page.getByTestId('playground-rell2').textContent()) ?? '';
  for (const t0 = Date.now(); !/relL2 \d/.test(await text()); await page.waitForTimeout(100)) if (Date.now() - t0 > 20_000) throw new Error(`no relL2 shown: ${await text()}`);
  const shown = Number(/relL2 ([\d.e+-]+)/.exec(await text())![1]);
  await page.getByTestId('playground-name').fill('painted');
  await page.getByTestId('playground-save').click();
  await page.getByTestId('playground-saved').waitFor();
  const ws = suite.host.workspace;
  const id = (await page.getByTestId('playground-saved').getAttribute('data-dataset-id'))!;
  // named by the label the user gave, one sample (in train and val)
  await page.waitForFunction(() => /^Saved as dataset painted — Darcy · s = 29 \(2D\) · 1 sample \(1\/1\/0, shared by the splits\)$/.test((globalThis as any).document.querySelector('[data-testid="playground-saved"]')?.textContent ?? ''), null, { timeout: 10_000 });
  // Add to dataset offers the saved one-sample set (no run uses it) and not the run's own training set
  const offered = async () => page.getByTestId('playground-append-into').locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value).filter(Boolean));
  for (const t0 = Date.now(); !(await offered()).includes(id); await page.waitForTimeout(100)) if (Date.now() - t0 > 10_000) throw new Error(`the saved dataset is not offered: ${(await offered()).join(', ')}`);
  assert.deepEqual(await offered(), [id], 'only the dataset it can append to');
  // the panels: visible titles, axes tight on the 29 x 29 grid (no padding beyond the half cells)
  const panels = await page.evaluate(() => ['playground-prediction', 'playground-truth', 'playground-error'].map((t) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${t}"] .js-plotly-plot`);
    return { title: el.querySelector('.gtitle')?.textContent ?? '', x: el._fullLayout.xaxis.range as number[], y: el._fullLayout.yaxis.range as number[] };
  }));
  assert.deepEqual(panels.map((p) => p.title), ['Prediction', 'Truth (solver)', '|Error|']);
  for (const p of panels) for (const r of [p.x, p.y]) assert.ok(Math.min(...r) > -2 && Math.max(...r) < 30, `axis range [${r.join(', ')}] is padded`);
  const { relL2: cli } = await predictSavedInput(ws, runId, id, { workspace: ws });
  assert.ok(Math.abs(cli - shown) <= 1e-5, `shown relL2 ${shown} vs lino predict ${cli}`);
  await page.screenshot({ path: `${SHOTS}/playground.png` });
  assert.deepEqual(problems, []);
});

/** Sets a range input's value as a drag would (React listens to 'input'). */
async function slide(page: Page, testId: string, value: number): Promise<void> {
  await page.getByTestId(testId).evaluate((el, v) => {
    const input = el as unknown as { value: string; dispatchEvent(e: unknown): boolean };
    const setter = Object.getOwnPropertyDescriptor((globalThis as any).HTMLInputElement.prototype, 'value')!.set!;
    setter.call(input, String(v));
    input.dispatchEvent(new (globalThis as any).Event('input', { bubbles: true }));
  }, value);
}

test('playground: the resolution slider regrids the input, the prediction and the truth follow; a val sample with its stored truth, its light maps, its arrays exported', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await playgroundWithDrawnInput();
  const pred0 = await changes(page, 'playground-prediction', null, 'the first prediction');
  assert.equal(pred0.length * pred0[0]!.length, 29 * 29, 'the run\'s own grid first');
  // the slider: the painted canvas, the prediction and the truth move to 40 x 40
  await slide(page, 'playground-resolution', 40);
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="playground-canvas"]')?.width === 40, null, { timeout: 20_000 });
  const pred1 = await changes(page, 'playground-prediction', pred0, 'the prediction at 40 x 40');
  assert.deepEqual([pred1.length, pred1[0]!.length], [40, 40]);
  for (const t0 = Date.now(); ; await page.waitForTimeout(100)) {
    const z = await drawn(page, 'playground-truth');
    if (z && z.length === 40 && z[0]!.length === 40) break;
    if (Date.now() - t0 > 30_000) throw new Error('the truth did not follow to 40 x 40');
  }
  // a validation sample: the input and its stored truth at the data's grid
  await page.getByTestId('playground-sample-index').fill('1');
  await page.getByTestId('playground-sample-use').click();
  await page.getByTestId('playground-sample-shown').waitFor();
  const truthZ = await changes(page, 'playground-truth', null, 'the stored truth');
  assert.deepEqual([truthZ.length, truthZ[0]!.length], [29, 29]);
  await page.getByTestId('playground-sample-compare').click();
  await page.getByTestId('playground-solver-vs-stored').waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('playground-solver-vs-stored').textContent()) ?? '', /relL2 \d/);
  // the light maps of this input, per block
  await page.getByTestId('playground-lightmaps-toggle').check();
  await page.getByTestId('playground-lightmap-plot-0').locator('.js-plotly-plot').waitFor({ timeout: 30_000 });
  // the arrays, exported
  await page.getByTestId('playground-export-name').fill('e2e-found');
  await page.getByTestId('playground-export').click();
  await page.getByTestId('playground-exported').waitFor();
  for (const f of ['input', 'prediction', 'truth', 'error']) assert.ok(existsSync(join(suite.host.workspace, 'exports', 'e2e-found', `${f}.npy`)), f);
  await assertAccessible(page, 'Playground view with a dataset sample and its light maps');
  assert.deepEqual(problems, []);
});
