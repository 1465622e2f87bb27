// End to end for the Rollout view in Debian's Chromium against browser mode with the real engine:
// a tiny generated Navier–Stokes run (16², T_in = T_out = 3) trained in setup, evaluated from the
// view; the drawn frames are the engine's, the slider steps by keyboard, play runs to the end, the
// step-wise relL2 curve carries the ±1 std band and the trajectory, and the paper figure exports
// to SVG with its "t = k" titles as text. An operator run (Darcy) gets a pointer to the Fields view.
// Screenshot: test-results/screenshots/rollout.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EvaluationResult, JobSummary } from '../../main/api/contract';
import { sharedId, trainedId } from '../helpers/trained-run';
import { standardRun } from '../helpers/standard-runs';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { assertAccessible } from '../helpers/axe';
import { openPage, gotoView } from '../helpers/page';

const PDFTOTEXT = '/usr/bin/pdftotext';
let nsRun = '';
let opRun = '';

const suite = browserSuite(async (host) => {
  const tiny = { model: { width: 8, depth: 1 }, batchSize: 1, optimizer: { lr: 5e-3 } };
  nsRun = await trainedId(host.service, { ...tiny, name: 'e2e ns', epochs: 2, data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 5, frames: 6, train: 3, val: 2, tIn: 3, tOut: 3, resolution: 16 } });
  // an operator run: the standard tiny Darcy LiNO (trained once per test invocation, shared with the Playground tests)
  opRun = await sharedId(host.service, host.workspace, standardRun('darcy', 'lino'));
});
const skip = suite.skip;

/** Plotly's data on the graph div under a test id (what is drawn, not what the store holds). */
function plotData(page: Page, testId: string): Promise<{ name?: string; type: string; x: number[]; y: number[]; z?: number[][] }[] | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?.data) return null;
    return el.data.map((d: any) => ({ name: d.name, type: d.type, x: Array.from(d.x ?? []), y: Array.from(d.y ?? []), z: d.z ? d.z.map((r: any) => Array.from(r)) : undefined }));
  }, testId);
}

async function latestEvaluation(): Promise<EvaluationResult> {
  const jobs = ((await suite.host.service.call('jobs.list', {})) as JobSummary[]).filter((j) => j.kind === 'evaluate' && j.state === 'done');
  jobs.sort((a, b) => (a.endedAt ?? '').localeCompare(b.endedAt ?? ''));
  return jobs[jobs.length - 1]!.result as EvaluationResult;
}

/** A drawn field back in stored [x, y] order (plots/traces.ts fieldZ draws z[j][i] = field[i][j]). */
const stored = (z: number[][]) => z[0]!.flatMap((_, i) => z.map((row) => row[i]!));

const near = (a: number[], b: number[], what: string) => {
  assert.equal(a.length, b.length, `${what}: lengths`);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= 1e-6 * (1 + Math.abs(b[i]!)), `${what}[${i}]: ${v} vs ${b[i]}`));
};

test('rollout view: evaluate a tiny Navier–Stokes run, step and play the frames, the step-wise relL2 band, the paper figure to SVG', { skip, timeout: 300_000 }, async () => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Rollout');

  // An operator run is not offered; chosen in another view, it is pointed to the Fields view.
  await page.getByTestId('run-picker').locator(`option[value="${nsRun}"]`).waitFor({ state: 'attached', timeout: 20_000 });
  assert.equal(await page.getByTestId('run-picker').locator(`option[value="${opRun}"]`).count(), 0, 'a Darcy run is not offered');
  await gotoView(page, 'Training');
  await page.getByTestId('run-picker').selectOption(opRun);
  await gotoView(page, 'Rollout');
  await page.getByTestId('rollout-not-autoregressive').waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('rollout-evaluate').count(), 0);

  await page.getByTestId('run-picker').selectOption(nsRun);
  // Rollout steps default to the run's T_out; more than the targets hold is refused next to the field.
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="rollout-steps"]')?.value === '3', undefined, { timeout: 20_000 });
  await page.getByTestId('rollout-steps').fill('4');
  await page.getByText('Rollout steps: a whole number from 1 to 3').waitFor();
  assert.equal(await page.getByTestId('rollout-evaluate').isDisabled(), true);
  await page.getByTestId('rollout-steps').fill('3');
  await page.getByTestId('rollout-which').selectOption('worst');
  await page.getByTestId('rollout-evaluate').click();
  await page.getByTestId('rollout-info').waitFor({ timeout: 60_000 });
  const ev = await latestEvaluation();
  const res = ev.resolutions[0]!;
  const worst = res.fields!.find((f) => f.which === 'worst')!;
  assert.equal(res.n, 2);
  assert.deepEqual(res.grid, [16, 16]);
  assert.match((await page.getByTestId('rollout-info').textContent()) ?? '', new RegExp(`^Validation trajectory ${worst.index} \\(worst\\)`));

  // The frames of step 1: one 16×16 heatmap each, drawn from the engine's fields.
  assert.equal(await page.getByTestId('rollout-step').textContent(), 't = 1 / 3');
  for (const id of ['rollout-reference', 'rollout-prediction', 'rollout-error']) {
    const d = (await plotData(page, id))!;
    assert.deepEqual([d.length, d[0]!.type, d[0]!.z!.length, d[0]!.z![0]!.length], [1, 'heatmap', 16, 16], id);
  }
  near(stored((await plotData(page, 'rollout-reference'))![0]!.z!), worst.reference[0]!, 'reference t=1');

  // The filmstrip: rows over all 3 steps, the shown column outlined.
  const stripShape = () => page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="rollout-strip"] .js-plotly-plot')?.layout?.shapes?.[0]?.x0 as number);
  assert.equal((await plotData(page, 'rollout-strip'))!.filter((d) => d.type === 'heatmap' && d.z!.length === 16).length, 9);
  const outlined1 = await stripShape();

  // Keyboard: the labelled slider moves one step per arrow key.
  const slider = page.getByRole('slider', { name: 'Rollout step' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('rollout-step').filter({ hasText: /^t = 2 \/ 3$/ }).waitFor();
  assert.equal(await slider.getAttribute('aria-valuetext'), 'step 2 of 3');
  await page.waitForFunction(() => /t = 2/.test((globalThis as any).document.querySelector('[data-testid="rollout-prediction"] .js-plotly-plot')?.layout?.title?.text ?? ''));
  near(stored((await plotData(page, 'rollout-prediction'))![0]!.z!), worst.prediction[1]!, 'prediction t=2');
  assert.ok((await stripShape()) > outlined1, 'the outline moved to the next column');
  const err = stored((await plotData(page, 'rollout-error'))![0]!.z!);
  near(err, worst.reference[1]!.map((v, i) => Math.abs(worst.prediction[1]![i]! - v)), '|error| t=2');
  await page.keyboard.press('Home');
  await page.getByTestId('rollout-step').filter({ hasText: /^t = 1 \/ 3$/ }).waitFor();

  // Play advances on a timer and stops at the last step.
  await page.getByTestId('rollout-play').click();
  assert.equal(await page.getByTestId('rollout-play').textContent(), 'Pause');
  await page.getByTestId('rollout-step').filter({ hasText: /^t = 2 \/ 3$/ }).waitFor({ timeout: 10_000 });
  await page.getByTestId('rollout-step').filter({ hasText: /^t = 3 \/ 3$/ }).waitFor({ timeout: 10_000 });
  await page.getByTestId('rollout-play').filter({ hasText: /^Replay$/ }).waitFor({ timeout: 5_000 });
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(await page.getByTestId('rollout-step').textContent(), 't = 3 / 3', 'stopped at the last step');

  // Step-wise relL2: the band (2T points) around the validation mean, the trajectory on top, step 3 marked.
  const curve = (await plotData(page, 'rollout-curve'))!;
  const band = curve.find((c) => c.name === '±1 std (validation)')!;
  const mean = curve.find((c) => c.name === 'mean (validation)')!;
  const traj = curve.find((c) => c.name === `trajectory ${worst.index} (worst)`)!;
  assert.deepEqual(band.x, [1, 2, 3, 3, 2, 1]);
  assert.deepEqual(mean.x, [1, 2, 3]);
  assert.deepEqual(traj.x, [1, 2, 3]);
  near(mean.y, res.metrics.steps!.mean, 'mean');
  near(traj.y, worst.stepRelL2!, 'trajectory stepRelL2');
  near(band.y.slice(0, 3), res.metrics.steps!.mean.map((m, i) => m + res.metrics.steps!.std[i]!), 'band upper edge');
  assert.ok(res.metrics.steps!.std.some((s) => s > 0), 'two trajectories: a band with width');
  assert.deepEqual(curve.find((c) => c.name === 'shown step (3)')!.x, [3]);

  // Paper figure: evenly spaced steps by default (all 3 here), then a chosen subset.
  let paper = (await plotData(page, 'rollout-paper'))!;
  assert.equal(paper.filter((d) => d.type === 'heatmap').length, 9);
  await page.getByTestId('rollout-figure-steps').fill('1, 3');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="rollout-paper"] .js-plotly-plot')?.data?.length === 6);
  paper = (await plotData(page, 'rollout-paper'))!;
  assert.ok(paper.every((d) => d.type === 'heatmap' && d.z!.length === 16 && d.z![0]!.length === 16));
  await page.getByTestId('rollout-figure-steps').fill('1, 9');
  await page.getByText("Steps shown: '9' is not a step from 1 to 3").waitFor();
  await page.getByTestId('rollout-figure-steps').fill('1, 3');

  const exportsDir = join(suite.host.workspace, 'exports');
  const before = new Set(readdirSync(exportsDir));
  const fig = page.getByTestId('rollout-paper');
  // Exported at the size the figure is laid out for (shown next to it).
  const [w, h] = ((await page.getByTestId('rollout-paper-size').textContent()) ?? '').match(/(\d+) × (\d+) px/)!.slice(1);
  // The figure keeps its own export size, starting at that one: no other plot's size changes with
  // it. Typed away from it, the export bar offers the figure's size back.
  const curveWidth = () => page.getByTestId('rollout-curve').getByLabel('Width', { exact: true }).inputValue();
  const otherWidth = await curveWidth();
  assert.equal(await fig.getByLabel('Width', { exact: true }).inputValue(), w, 'starts at the figure size');
  await fig.getByLabel('Width', { exact: true }).fill('1234');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="rollout-paper"] [data-testid="export-figure-size"]') != null);
  assert.equal(await curveWidth(), otherWidth, 'another plot keeps its width');
  await fig.getByTestId('export-figure-size').click();
  // The inputs follow the chosen size after React's effects have run.
  await fig.getByTestId('export-figure-size').waitFor({ state: 'detached' });
  await page.waitForFunction(([ww, hh]) => {
    const el = (globalThis as any).document.querySelector('[data-testid="rollout-paper"]');
    const inputs = [...(el?.querySelectorAll('input') ?? [])].map((i: any) => i.value);
    return inputs.includes(ww) && inputs.includes(hh);
  }, [w!, h!], { timeout: 10_000 });
  assert.equal(await fig.getByLabel('Width', { exact: true }).inputValue(), w);
  assert.equal(await fig.getByLabel('Height', { exact: true }).inputValue(), h);
  assert.equal(await curveWidth(), otherWidth, '"Use figure size" resizes this figure only');
  await fig.getByRole('button', { name: 'Export Rollout paper figure as SVG' }).click();
  await fig.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.svg$/ }).waitFor({ timeout: 60_000 });
  const svgName = readdirSync(exportsDir).find((n) => !before.has(n) && n.endsWith('.svg'))!;
  const svg = readFileSync(join(exportsDir, svgName), 'utf8');
  assert.match(svg, /^<svg/);
  assert.match(svg, new RegExp(`^<svg[^>]* width="${w}" height="${h}"`));
  for (const text of ['>t = 1<', '>t = 3<', '>Reference<', '>Prediction<', '>|Error|<']) assert.ok(svg.includes(text), `${text} as SVG text`);
  assert.ok(!svg.includes('>t = 2<'), 'only the chosen steps');
  assert.equal((svg.match(/<image /g) ?? []).length, 6, 'one raster tile per heatmap');
  // The same figure as a vector PDF: the titles stay text.
  await fig.getByRole('button', { name: 'Export Rollout paper figure as PDF' }).click();
  await fig.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.pdf$/ }).waitFor({ timeout: 60_000 });
  const pdfName = readdirSync(exportsDir).find((n) => !before.has(n) && n.endsWith('.pdf'))!;
  if (existsSync(PDFTOTEXT)) {
    // pdftotext drops the spaces jsPDF places as glyph offsets ("t=1"): compare without whitespace.
    const text = spawnSync(PDFTOTEXT, [join(exportsDir, pdfName), '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, '');
    for (const t of ['t=1', 't=3', 'Reference', 'Prediction', '|Error|']) assert.ok(text.includes(t), `${t} as PDF text in ${text}`);
  } else {
    assert.ok(!process.env.CI, `${PDFTOTEXT} is required in CI to check the PDF's text`);
    assert.match(readFileSync(join(exportsDir, pdfName)).toString('latin1'), /^%PDF-/);
  }
  await fig.screenshot({ path: `${SHOTS}/rollout-paper.png` });
  assert.deepEqual(svg.match(/class="cb\w+ colorbar"/g), ['class="cbcoloraxis colorbar"', 'class="cbcoloraxis2 colorbar"'], 'one colour bar for reference/prediction, one for |error|');

  // Leaving the view and coming back keeps the evaluation (read back from the job).
  await page.getByRole('button', { name: 'Fields', exact: true }).click();
  await page.getByRole('heading', { name: 'Fields', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Rollout', exact: true }).click();
  await page.getByTestId('rollout-info').waitFor({ timeout: 10_000 });
  await page.getByTestId('rollout-paper').waitFor();

  // A trajectory by index (a second evaluation asking for it).
  await page.getByTestId('rollout-which').selectOption('index');
  // An index the split does not have: the engine's refusal is shown next to the button.
  await page.getByTestId('rollout-index').fill('7');
  await page.getByTestId('rollout-evaluate').click();
  await page.getByRole('alert').filter({ hasText: /^Evaluation failed: .*sample 7 asked for, the 'val' split at 16x16 has 2 samples/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId('rollout-index').fill('1');
  await page.getByText('Trajectory 1 is not in this evaluation').waitFor();
  await page.getByTestId('rollout-evaluate').click();
  await page.getByTestId('rollout-info').filter({ hasText: /^Validation trajectory 1 \(chosen by index\)/ }).waitFor({ timeout: 60_000 });
  const byIndex = (await latestEvaluation()).resolutions[0]!.fields!.find((f) => f.which === 'index')!;
  near(stored((await plotData(page, 'rollout-reference'))![0]!.z!), byIndex.reference[0]!, 'index 1 reference t=1');

  // Fits a 1366×768 window without sideways scrolling; accessible.
  assert.ok(await page.evaluate(() => {
    const c = (globalThis as any).document.querySelector('.content');
    return c.scrollWidth <= c.clientWidth + 1;
  }), 'no horizontal overflow at 1366 wide');
  await assertAccessible(page, 'Rollout view');
  await page.screenshot({ path: `${SHOTS}/rollout.png` });
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await page.waitForFunction(() => (globalThis as any).document.documentElement.dataset.theme === 'dark');
  await assertAccessible(page, 'Rollout view, dark theme');
  assert.deepEqual(problems, []);
  await page.close();
});

// Evaluations run one at a time in their own lane: a larger evaluation of the same run asked first
// (resolution transfer to 256², which generates Navier–Stokes data at that grid: minutes) keeps the
// view's evaluation queued, for as long as the test lets it run.
test('an evaluation waiting behind a larger evaluation shows its state, is cancelled from the view, and shows its result once the lane is free', { skip, timeout: 240_000 }, async () => {
  const { service, workspace } = suite.host;
  const evalJob = async (id: string) => ((await service.call('jobs.list', {})) as JobSummary[]).find((j) => j.id === id)!;
  const viewJobs = async (blockerId: string) => ((await service.call('jobs.list', {})) as JobSummary[]).filter((j) => j.kind === 'evaluate' && j.id !== blockerId);
  const datasetsBefore = readdirSync(join(workspace, 'datasets')).sort();
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  let blocker: JobSummary | undefined;
  try {
    await gotoView(page, 'Rollout');
    await page.getByTestId('run-picker').selectOption(nsRun);
    await page.getByTestId('rollout-which').selectOption('median');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="rollout-evaluate"]')?.disabled === false, undefined, { timeout: 20_000 });
    const before = new Set((await viewJobs('')).map((j) => j.id));

    blocker = (await service.call('runs.evaluate', { id: nsRun, resolutions: [256] })) as JobSummary;
    assert.equal(blocker.lane, 'evaluation');
    for (const t0 = Date.now(); (await evalJob(blocker.id)).state !== 'running'; await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() - t0 > 30_000) throw new Error(`the blocking evaluation did not start: ${JSON.stringify(await evalJob(blocker.id))}`);
    }

    // Queued behind it, shown as queued; Cancel in the view cancels it (jobs.list: cancelled).
    await page.getByTestId('rollout-evaluate').click();
    const queued = page.getByTestId('rollout-job-queued');
    await queued.waitFor({ timeout: 30_000 });
    const first = (await viewJobs(blocker.id)).find((j) => !before.has(j.id))!;
    assert.equal(first.state, 'queued');
    assert.equal((await evalJob(blocker.id)).state, 'running', 'still behind the larger evaluation');
    await queued.getByRole('button', { name: 'Cancel evaluation' }).click();
    await queued.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal((await evalJob(first.id)).state, 'cancelled');
    assert.equal(await page.getByTestId('rollout-evaluate').isDisabled(), false, 'the view can evaluate again');

    // Asked again: queued again; once the larger evaluation is cancelled, it runs and its result is drawn.
    await page.getByTestId('rollout-evaluate').click();
    await queued.waitFor({ timeout: 30_000 });
    const second = (await viewJobs(blocker.id)).find((j) => !before.has(j.id) && j.id !== first.id)!;
    assert.equal(second.state, 'queued');
    assert.deepEqual(await service.call('jobs.cancel', { id: blocker.id }), { ok: true });
    await queued.waitFor({ state: 'detached', timeout: 30_000 });
    // (the view keeps showing the earlier evaluation while this one runs: wait for the job, then read the view)
    let done = await evalJob(second.id);
    for (const t0 = Date.now(); done.state === 'queued' || done.state === 'running'; done = await evalJob(second.id)) {
      if (Date.now() - t0 > 120_000) throw new Error(`the view's evaluation did not finish: ${JSON.stringify(done)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(done.state, 'done', done.error);
    await page.getByTestId('rollout-job-running').waitFor({ state: 'detached', timeout: 10_000 });
    const median = (done.result as EvaluationResult).resolutions[0]!.fields!.find((f) => f.which === 'median')!;
    assert.match((await page.getByTestId('rollout-info').textContent()) ?? '', new RegExp(`^Validation trajectory ${median.index} \\(median\\)`));
    assert.equal((await evalJob(blocker.id)).state, 'cancelled');
    assert.deepEqual(readdirSync(join(workspace, 'datasets')).sort(), datasetsBefore, 'the cancelled 256² evaluation left no dataset behind');
    assert.deepEqual(problems, []);
  } finally {
    if (blocker) await service.call('jobs.cancel', { id: blocker.id });
    await page.close();
  }
});

// The workspace setting "headline relL2" (Workspace view) flips the convention Rollout and Fields put
// first, and the label beside the number says which: decoded, then back to normalized.
test('the headline relL2 setting: Rollout and Fields headline the chosen convention and name it', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  const choose = async (h: 'normalized' | 'decoded') => {
    await gotoView(page, 'Workspace');
    await page.getByTestId('rell2-headline').selectOption(h);
    await page.waitForFunction((v) => (globalThis as any).document.querySelector('[data-testid="rell2-headline"]')?.value === v, h);
  };
  const headline = (id: string, h: string) => page.getByTestId(id).filter({ hasText: new RegExp(`\\(${h}\\)$`) });
  try {
    await choose('decoded');
    assert.equal(((await suite.host.service.call('workspace.get', {})) as { settings: { relL2Headline: string } }).settings.relL2Headline, 'decoded');
    await gotoView(page, 'Rollout');
    await page.getByTestId('run-picker').selectOption(nsRun);
    await page.getByTestId('rollout-which').selectOption('best');
    await page.getByTestId('rollout-evaluate').click();
    await page.getByTestId('rollout-info').filter({ hasText: /^Validation trajectory \d+ \(best\)/ }).waitFor({ timeout: 60_000 });
    const best = (await latestEvaluation()).resolutions[0]!.fields!.find((f) => f.which === 'best')!;
    await headline('rollout-headline', 'decoded').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('rollout-headline').textContent(), `${best.relL2Decoded.toPrecision(4)} (decoded)`);
    await choose('normalized');
    await gotoView(page, 'Rollout');
    await headline('rollout-headline', 'normalized').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('rollout-headline').textContent(), `${best.relL2.toPrecision(4)} (normalized)`);

    await gotoView(page, 'Fields');
    await page.getByTestId('run-picker').selectOption(opRun);
    await page.getByTestId('fields-evaluate').click();
    await page.getByTestId('fields-info').filter({ hasText: /^validation sample \d+, / }).waitFor({ timeout: 60_000 });
    const shownIndex = Number(/^validation sample (\d+),/.exec((await page.getByTestId('fields-info').textContent())!)![1]);
    const s = (await latestEvaluation()).resolutions[0]!.perSample.find((p) => p.index === shownIndex)!;
    assert.equal(await headline('fields-headline', 'normalized').textContent(), `${s.relL2.toPrecision(4)} (normalized)`);
    await choose('decoded');
    await gotoView(page, 'Fields');
    await headline('fields-headline', 'decoded').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('fields-headline').textContent(), `${s.relL2Decoded.toPrecision(4)} (decoded)`);
    assert.match((await page.getByTestId('fields-info').textContent())!, /split relL2 [\d.e+-]+ \(decoded; [\d.e+-]+ normalized\)/);
    assert.deepEqual(problems, []);
  } finally {
    await suite.host.service.call('workspace.settings', { relL2Headline: 'normalized' });
    await page.close();
  }
});
