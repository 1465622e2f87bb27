// The closing walk of research workflow III: the eleven tasks (the first walk's nine, sweeps, the Playground) through the UI, in
// headless Chromium against browser mode with the real engine, at tiny sizes (minutes on 2 cores),
// one screenshot per task under docs/screenshots/ (1366×768, light theme; two in dark). What each
// screen showed is written to walk-notes.json beside the workspace, for docs/walk.md.
// Documentation, not a test: not in the test suite.
// Usage: npx tsx scripts/walk-screenshots.ts [--out docs/screenshots] [--workspace DIR]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { startBrowserHost } from '../main/hosts/browser/server';
import { WorkbenchService } from '../main/services/workbench-service';
import { bundleLauncher } from '../main/services/engine-launcher';
import { ensureRendererBuilt, RENDERER_DIR, ROOT } from '../test/helpers/host';
import { launchChromium } from '../test/helpers/chromium';
import { gotoView, openPage } from '../test/helpers/page';
import { fillGridSweepForm } from '../test/helpers/sweep-form';

const { values } = parseArgs({ options: { out: { type: 'string' }, workspace: { type: 'string' } } });
const OUT = resolve(values.out ?? join(ROOT, 'docs/screenshots'));
const LONG = 600_000;
const notes: Record<string, unknown> = {};

/** Saves the viewport (1366×768) as docs/screenshots/walk-<name>.png and notes its size. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(1500); // plots settle (plotly's transitions, fonts)
  const path = join(OUT, `walk-${name}.png`);
  await page.screenshot({ path });
  console.log(`${path} ${Math.round(statSync(path).size / 1024)} KB`);
}

/** Scrolls the element under a test id to the top of the view (what a screenshot should show first). */
async function toTop(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).first().evaluate((el) => (el as any).scrollIntoView({ block: 'start' }));
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const now = await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme);
  if (now !== theme) await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
  await page.waitForFunction((t) => (globalThis as any).document.documentElement.dataset.theme === t, theme);
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent({ timeout: 5000 }).catch(() => null)) ?? '').replace(/\s+/g, ' ').trim();

/** Generates a dataset from the Datasets view's form and answers its listed name. */
async function generate(page: Page, benchmark: string, samples: string, resolution: string): Promise<void> {
  await gotoView(page, 'Datasets');
  await page.getByTestId('gen-benchmark').selectOption(benchmark);
  await page.getByTestId('gen-preset').selectOption('tiny');
  await page.getByTestId('gen-samples').fill(samples);
  await page.getByTestId('gen-resolution').fill(resolution);
  await page.getByTestId('gen-start').click();
  await page.getByTestId('gen-job-done').filter({ hasText: new RegExp(benchmark) }).first().waitFor({ timeout: LONG });
}

/** Sets the Model view's draft: kind, then the named number fields. */
async function model(page: Page, kind: string, fields: Record<string, string>): Promise<void> {
  await gotoView(page, 'Model');
  await page.getByTestId('model-kind').selectOption(kind);
  for (const [k, v] of Object.entries(fields)) await page.getByTestId(`field-${k}`).fill(v);
}

/** Starts a run from the Training view on the workspace dataset whose name matches; answers its id once done. */
async function train(page: Page, name: string, data: RegExp, epochs: string, wait = true): Promise<string> {
  await gotoView(page, 'Training');
  const option = page.getByTestId('train-data').locator('option').filter({ hasText: data }).first();
  await page.getByTestId('train-data').selectOption((await option.getAttribute('value'))!);
  await page.getByTestId('train-epochs').fill(epochs);
  await page.getByTestId('train-batch').fill('2');
  await page.getByTestId('train-lr').fill('0.005');
  await page.getByTestId('train-name').fill(name);
  await page.getByTestId('train-start').click();
  await page.waitForFunction((n) => ((globalThis as any).document.querySelector('[data-testid="run-picker"] option:checked')?.textContent ?? '').startsWith(n), name, { timeout: 60_000 });
  const id = await page.getByTestId('run-picker').inputValue();
  if (wait) await page.getByTestId('run-state').filter({ hasText: /^(done|failed)$/ }).waitFor({ timeout: LONG });
  return id;
}

/** Tasks 1 and 2: Darcy with LiNO, then FNO and DeepONet on the same data; Gates (light and dark). */
async function darcyAndBaselines(page: Page, ids: Record<string, string>): Promise<void> {
  await generate(page, 'darcy', '20', '29');
  await model(page, 'lino', { width: '8', depth: '2' });
  ids.lino = await train(page, 'walk LiNO', /^Darcy · s = 29/, '6');
  notes.training = { stats: await text(page, 'run-stats'), state: await text(page, 'run-state') };
  await page.getByTestId('smoothing').evaluate((el) => (el as any).closest('.row, div').scrollIntoView({ block: 'center' }));
  await shot(page, '01-darcy-lino-training');
  await gotoView(page, 'Gates');
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await shot(page, '02-gates');
  await setTheme(page, 'dark');
  await shot(page, '02-gates-dark');
  await setTheme(page, 'light');
  await model(page, 'fno', { width: '8', modes: '6' });
  ids.fno = await train(page, 'walk FNO', /^Darcy · s = 29/, '6');
  await model(page, 'deeponet', { width: '16', depth: '2', basis: '8' });
  ids.deeponet = await train(page, 'walk DeepONet', /^Darcy · s = 29/, '6');
  notes.deeponet = { state: await text(page, 'run-state'), stats: await text(page, 'run-stats') };
  // the three on one sample: Fields compare
  await gotoView(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('fields-index').fill('0');
  await page.getByTestId('fields-mode-compare').click();
  for (const k of ['fno', 'deeponet']) await page.getByTestId(`compare-pick-${ids[k]}`).check();
  await page.getByTestId('compare-evaluate').click();
  await page.getByTestId('compare-error-2').locator('.main-svg').first().waitFor({ timeout: LONG });
  notes.compare = await text(page, 'compare-info');
  notes.compareLegend = ((await page.getByTestId('compare').locator('legend').first().textContent()) ?? '').trim();
  await toTop(page, 'compare-info');
  await shot(page, '03-fno-deeponet-compare');
}

/** Task 7: resolution transfer of the LiNO run from the Fields view. */
async function transfer(page: Page, ids: Record<string, string>): Promise<void> {
  await gotoView(page, 'Fields');
  if ((await page.getByTestId('fields-mode-single').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('fields-mode-single').click();
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('fields-res-text').fill('15, 43, 57');
  await page.getByTestId('fields-evaluate').click();
  const sweep = page.getByTestId('sweep-table');
  await sweep.getByTestId('sweep-row-57×57').waitFor({ timeout: LONG });
  notes.transfer = ((await sweep.textContent()) ?? '').replace(/\s+/g, ' ');
  await sweep.scrollIntoViewIfNeeded();
  await shot(page, '07-resolution-transfer');
}

/** Task 3: the ablation of the LiNO run, one seed per variant (one sweep). */
async function ablation(page: Page, ids: Record<string, string>): Promise<void> {
  await gotoView(page, 'Ablation');
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('ablation-seeds').fill('1');
  const launch = page.getByTestId('ablation-launch');
  await launch.filter({ hasText: /Launch 4 variants/ }).waitFor({ timeout: 30_000 });
  await launch.click();
  // while the variants train: a generation in its own lane (the first walk's NS data sat queued)
  const g0 = Date.now();
  await gotoView(page, 'Datasets');
  await page.getByTestId('gen-benchmark').selectOption('navier-stokes');
  await page.getByTestId('gen-preset').selectOption('tiny');
  await page.getByTestId('gen-samples').fill('8');
  await page.getByTestId('gen-resolution').fill('16');
  await page.getByTestId('gen-start').click();
  await gotoView(page, 'Training');
  await page.getByTestId('queue-lane-data').waitFor({ timeout: 30_000 }).catch(() => {});
  notes.queue = await text(page, 'queue');
  await toTop(page, 'queue');
  await shot(page, '04-lanes-during-ablation');
  await gotoView(page, 'Datasets');
  await page.getByTestId('gen-job-done').filter({ hasText: /navier-stokes/ }).first().waitFor({ timeout: LONG });
  notes.generationSeconds = Math.round((Date.now() - g0) / 1000);
  await gotoView(page, 'Ablation');
  notes.ablationWhenGenerated = await text(page, 'ablation-table');
  const table = page.getByTestId('ablation-table');
  for (const v of ['full', 'no-reflection', 'no-refraction', 'no-scattering']) await table.getByTestId(`ablation-row-${v}`).getByTestId('ablation-seeds-done').filter({ hasText: /^1\/1$/ }).waitFor({ timeout: LONG });
  await page.getByTestId('ablation-bars').locator('.main-svg').first().waitFor({ timeout: 60_000 });
  notes.ablation = ((await table.textContent()) ?? '').replace(/\s+/g, ' ');
  await toTop(page, 'ablation-table');
  await shot(page, '04-ablation');
}

/** Task 4: Navier–Stokes: a LiNO on the generated set, then its rollout. */
async function rollout(page: Page, ids: Record<string, string>): Promise<void> {
  await model(page, 'lino', { width: '8', depth: '1' });
  ids.ns = await train(page, 'walk LiNO NS', /^Navier/, '3');
  await gotoView(page, 'Rollout');
  await page.getByTestId('run-picker').selectOption(ids.ns);
  notes.rolloutOffered = await page.getByTestId('run-picker').locator('option:not([disabled])').allTextContents();
  await page.getByTestId('rollout-evaluate').click();
  await page.getByTestId('rollout-info').waitFor({ timeout: LONG });
  notes.rollout = await text(page, 'rollout-info');
  await toTop(page, 'rollout-info');
  await shot(page, '05-ns-rollout');
}

/** Task 5: light maps of the LiNO Darcy run, and their correlation table. */
async function lightMaps(page: Page, ids: Record<string, string>): Promise<void> {
  await gotoView(page, 'Light maps');
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('lightmaps-query-input').fill('10, 20');
  await page.getByTestId('lightmaps-query-input').press('Enter');
  await page.getByTestId('lightmaps-query').getByText('[10, 20]').waitFor({ timeout: LONG });
  notes.mapTitle = await page.getByTestId('lightmap-plot').locator('.gtitle').first().textContent().catch(() => null);
  await page.getByTestId('lightmaps-block').selectOption('all');
  await page.getByTestId('lightmaps-kind').selectOption('dominant');
  await page.getByTestId('lightmap-plot').locator('.main-svg').first().waitFor({ timeout: 60_000 });
  notes.queryLine = await text(page, 'lightmaps-query');
  notes.kernelNote = await text(page, 'kernel-weight-note');
  await toTop(page, 'run-picker');
  await shot(page, '06-light-maps');
  await page.getByTestId('lightmaps-correlation-compute').click();
  await page.getByTestId('lightmaps-correlation-table').waitFor({ timeout: LONG });
  notes.correlation = await text(page, 'lightmaps-correlation');
}

/** Task 6: reproduce a preset at tiny size; asked again, the view offers a new group. */
async function reproduce(page: Page): Promise<void> {
  await gotoView(page, 'Reproduce');
  await page.getByTestId('reproduce-presets').getByLabel(/Burgers s = 256/).check();
  await page.getByTestId('reproduce-size').selectOption('tiny');
  await page.getByTestId('reproduce-start').click();
  await page.getByTestId('reproduce-result').getByText(/rebuilt from its runs in the workspace/).waitFor({ timeout: LONG });
  await page.reload();
  await page.getByTestId('reproduce-result').waitFor({ timeout: 60_000 });
  // after the reload: the Model and Training drafts as they were left (the first walk got M32/L4 and 500 epochs back)
  await gotoView(page, 'Model');
  notes.modelAfterReload = { kind: await page.getByTestId('model-kind').inputValue(), width: await page.getByTestId('field-width').inputValue(), depth: await page.getByTestId('field-depth').inputValue() };
  await gotoView(page, 'Training');
  notes.epochsAfterReload = await page.getByTestId('train-epochs').inputValue();
  await gotoView(page, 'Reproduce');
  await page.getByTestId('reproduce-result').waitFor({ timeout: 60_000 });
  await page.getByTestId('reproduce-start').click();
  await page.getByTestId('reproduce-again').waitFor();
  notes.reproduceAgain = await text(page, 'reproduce-again');
  notes.reproduce = await text(page, 'reproduce-result');
  await toTop(page, 'reproduce-again');
  await shot(page, '08-reproduce');
  await page.getByTestId('reproduce-again').getByTestId('reproduce-reuse').click();
}

/** Task 8: breaking it: bad numbers in the generate form, a huge generation, a file that is no data. */
async function breakIt(page: Page, home: string): Promise<void> {
  writeFileSync(join(home, 'broken.mat'), Buffer.from('MATLAB 5.0 MAT-file, this is not one\0\0\0 garbage'.repeat(4)));
  await gotoView(page, 'Datasets');
  await page.getByTestId('gen-benchmark').selectOption('darcy');
  await page.getByTestId('gen-samples').fill('1000000');
  await page.getByTestId('gen-resolution').fill('3');
  await page.getByTestId('gen-train').fill('2');
  notes.badForm = await text(page, 'gen-warnings');
  notes.generateDisabled = await page.getByTestId('gen-start').isDisabled();
  const card = page.getByTestId('open-file');
  await card.getByRole('button', { name: 'Choose a file…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a data file' });
  await dialog.getByRole('combobox').selectOption('home');
  await dialog.getByRole('button', { name: /broken\.mat/ }).click();
  await card.locator('.error-message, [role="alert"]').first().waitFor({ timeout: 60_000 });
  notes.brokenFile = ((await card.textContent()) ?? '').replace(/\s+/g, ' ');
  await shot(page, '09-bad-input');
  await gotoView(page, 'Training');
  await page.getByTestId('train-epochs').fill('0');
  await page.getByTestId('train-lr').fill('-1');
  notes.badTraining = ((await page.locator('.card', { hasText: 'New run' }).textContent()) ?? '').replace(/\s+/g, ' ');
  notes.startDisabled = await page.getByTestId('train-start').isDisabled();
  await page.getByTestId('train-epochs').fill('6');
  await page.getByTestId('train-lr').fill('0.005');
  await gotoView(page, 'Datasets');
  notes.formAfterViewSwitch = await page.getByTestId('gen-samples').inputValue();
}

/** Task 9: runs and data at scale: datasets by name, the Runs table, parallel coordinates (light and dark). */
async function atScale(page: Page): Promise<void> {
  await gotoView(page, 'Datasets');
  await page.getByTestId('datasets-list').getByRole('button', { name: /^Darcy · s = 29/ }).first().click();
  notes.datasets = await page.getByTestId('datasets-list').getByRole('button').allTextContents();
  await shot(page, '10-datasets');
  await gotoView(page, 'Runs');
  await page.getByTestId('hparam-parcoords').locator('svg path.pc-line').first().waitFor({ state: 'attached', timeout: 60_000 });
  await page.getByTestId('runs-group-by').selectOption('config:model.kind');
  notes.runsShown = await text(page, 'runs-shown');
  await toTop(page, 'runs-search');
  await shot(page, '11-runs');
  await page.getByTestId('runs-group-by').selectOption('');
  await page.getByTestId('hparam-parcoords').scrollIntoViewIfNeeded();
  await setTheme(page, 'dark');
  await shot(page, '11-parallel-coordinates-dark');
  await setTheme(page, 'light');
}

/** Task 10: a sweep from the form (a 2×2 grid over width and learning rate on the walk's Darcy set, one seed). */
async function sweeps(page: Page): Promise<void> {
  await gotoView(page, 'Sweeps');
  await fillGridSweepForm(page, { name: 'walk grid', dataset: /^Darcy · s = 29/, epochs: '3', seeds: '1' });
  await page.getByTestId('sweep-start').click();
  const status = page.getByTestId('sweep-status');
  await status.waitFor({ timeout: 60_000 });
  notes.sweepStarted = await text(page, 'sweep-status');
  await status.filter({ hasText: /4 of 4 trials ended/ }).waitFor({ timeout: LONG });
  await page.getByTestId('sweep-parallel').locator('svg path.pc-line').nth(3).waitFor({ state: 'attached', timeout: 60_000 });
  notes.sweepDone = await text(page, 'sweep-status');
  notes.sweepImportance = await text(page, 'sweep-importance');
  await toTop(page, 'sweep-detail');
  await shot(page, '12-sweep');
}

/** Task 11: the Playground on the LiNO run: a freshly drawn coefficient, its prediction, truth and distance. */
async function playground(page: Page, ids: Record<string, string>): Promise<void> {
  await gotoView(page, 'Playground');
  await page.getByTestId('run-picker').locator(`option[value="${ids.lino}"]`).waitFor({ state: 'attached', timeout: 20_000 });
  await page.getByTestId('run-picker').selectOption(ids.lino);
  await page.getByTestId('playground-draw').click();
  await page.getByTestId('playground-distance').waitFor({ timeout: 60_000 });
  for (const t0 = Date.now(); !/relL2 \d/.test(await text(page, 'playground-rell2')) && Date.now() - t0 < 60_000;) await page.waitForTimeout(200);
  notes.playground = { relL2: await text(page, 'playground-rell2'), distance: await text(page, 'playground-distance') };
  await page.getByTestId('playground-prediction').evaluate((el) => (el as any).scrollIntoView({ block: 'start' }));
  await shot(page, '13-playground');
}

async function main(): Promise<void> {
  ensureRendererBuilt();
  mkdirSync(OUT, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'lino-walk-'));
  const workspace = resolve(values.workspace ?? join(scratch, 'workspace'));
  const home = join(scratch, 'home');
  mkdirSync(home, { recursive: true });
  process.env.LINO_CONFIG_DIR = join(scratch, 'config');
  const service = new WorkbenchService({ host: 'browser', launcher: bundleLauncher(join(ROOT, 'dist/engine/engine-process.js')), workspace, homeRoot: home });
  const host = await startBrowserHost({ service, staticDir: RENDERER_DIR });
  const browser = await launchChromium();
  const ids: Record<string, string> = {};
  const t0 = Date.now();
  try {
    const { page, problems } = await openPage(browser.context, host.url, { engineReady: true });
    await setTheme(page, 'light');
    const steps: [string, () => Promise<void>][] = [
      ['darcy, fno, deeponet', () => darcyAndBaselines(page, ids)],
      ['transfer', () => transfer(page, ids)],
      ['ablation', () => ablation(page, ids)],
      ['rollout', () => rollout(page, ids)],
      ['light maps', () => lightMaps(page, ids)],
      ['reproduce', () => reproduce(page)],
      ['break it', () => breakIt(page, home)],
      ['at scale', () => atScale(page)],
      ['sweeps', () => sweeps(page)],
      ['playground', () => playground(page, ids)],
    ];
    for (const [name, step] of steps) {
      const s0 = Date.now();
      try {
        await step();
      } catch (e) {
        notes[`failed: ${name}`] = e instanceof Error ? e.message : String(e);
        await page.screenshot({ path: join(scratch, `failed-${name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
        console.error(`${name} failed: ${e instanceof Error ? e.message : e}`);
      }
      console.log(`${name}: ${Math.round((Date.now() - s0) / 1000)} s`);
    }
    notes.problems = problems;
  } finally {
    notes.seconds = Math.round((Date.now() - t0) / 1000);
    writeFileSync(join(scratch, 'walk-notes.json'), JSON.stringify(notes, null, 2));
    console.log(`notes: ${join(scratch, 'walk-notes.json')}`);
    await browser.close();
    await host.close();
    await service.dispose();
    if (!values.workspace) rmSync(join(scratch, 'workspace'), { recursive: true, force: true });
  }
}

await main();
