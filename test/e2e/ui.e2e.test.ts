// End to end for the UI layer in Debian's Chromium against browser mode with the real engine:
// the plot wrapper (through a harness page served with the app's CSP), the Model view and its
// engine estimate, plot export to PNG/SVG/vector PDF into the workspace, themes, keyboard
// reach, 1366x768 fit, and an axe-core audit of every view. Screenshots go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { startTestHost, ensureRendererBuilt, ROOT, RENDERER_DIR, type TestHost } from '../helpers/host';
import { chromiumSkipReason, launchChromium } from '../helpers/chromium';
import { assertAccessible } from '../helpers/axe';
import { tempDir } from '../helpers/env';
import { startBrowserHost, type BrowserHost } from '../../main/hosts/browser/server';
import { createLino } from '../../main/model/lino/operator';
import { DEFAULT_DRAFT } from '../../renderer/src/logic/model-draft';
import { openPage as openSessionPage } from '../helpers/page';

/**
 * The labels of renderer/src/views/index.ts, the one list of views. Loaded by a computed path: the
 * registry names .tsx views, which the Node type check (no JSX) must not follow; the views
 * themselves load lazily, so only the list is read.
 */
async function registeredViewLabels(): Promise<string[]> {
  const registry = join(ROOT, 'renderer/src/views/index.ts');
  const { VIEWS } = (await import(pathToFileURL(registry).href)) as { VIEWS: { label: string }[] };
  return VIEWS.map((v) => v.label);
}

const skip = chromiumSkipReason();
if (skip) console.log(`# skipping browser tests: ${skip}`);
const SHOTS = `${ROOT}test-results/screenshots`;
const PDFTOTEXT = '/usr/bin/pdftotext';

let t: TestHost;
let harnessHost: BrowserHost;
let harnessDir: ReturnType<typeof tempDir>;
let browser: Awaited<ReturnType<typeof launchChromium>>;

before(async () => {
  if (skip) return;
  ensureRendererBuilt();
  mkdirSync(SHOTS, { recursive: true });
  t = await startTestHost();
  // The harness page: the real Plot component, bundled like the app and served with its CSP.
  harnessDir = tempDir('lino-harness-');
  await build({
    entryPoints: { app: `${ROOT}test/e2e/harness/plot-harness.tsx` },
    bundle: true,
    outdir: harnessDir.path,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  copyFileSync(`${RENDERER_DIR}/index.html`, join(harnessDir.path, 'index.html'));
  copyFileSync(`${RENDERER_DIR}/app.css`, join(harnessDir.path, 'app.css'));
  harnessHost = await startBrowserHost({ service: t.service, staticDir: harnessDir.path });
  browser = await launchChromium();
});
after(async () => {
  if (skip) return;
  await browser.close();
  await harnessHost.close();
  harnessDir.cleanup();
  await t.stop();
});

const openPage = (url: string) => openSessionPage(browser.context, url);

async function openModelView(): Promise<{ page: Page; problems: string[] }> {
  const r = await openPage(t.host.url);
  await r.page.getByRole('button', { name: 'Model', exact: true }).click();
  await r.page.getByRole('heading', { name: 'Model', level: 1 }).waitFor();
  await r.page.getByTestId('est-params').waitFor({ timeout: 60_000 });
  return r;
}

test('plot wrapper: draws a downsampled 100k-point curve and a 256x256 heatmap, redraws in place, follows the theme, purges on unmount', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(harnessHost.url);
  await page.locator('[data-testid="heat"] .hm, [data-testid="heat"] image').first().waitFor({ timeout: 30_000 });
  const state = () =>
    page.evaluate(() => {
      // No named inner functions here: tsx would wrap them in a helper the page does not have.
      const doc = (globalThis as any).document;
      const line = doc.querySelector('[data-testid="line"] .js-plotly-plot');
      const heat = doc.querySelector('[data-testid="heat"] .js-plotly-plot');
      return {
        plots: doc.querySelectorAll('.js-plotly-plot').length,
        linePoints: line?.data?.[0]?.x?.length ?? -1,
        lineMax: line ? Math.max(...line.data[0].y.filter((v: number) => Number.isFinite(v))) : NaN,
        lineY10: line?.data?.[0]?.y?.[10],
        heatRows: heat?.data?.[0]?.z?.length ?? -1,
        heatCols: heat?.data?.[0]?.z?.[0]?.length ?? -1,
        heatScale: heat?.data?.[0]?.colorscale?.[0]?.[1],
        paper: heat?._fullLayout?.paper_bgcolor,
        xTitle: line?._fullLayout?.xaxis?.title?.text,
        yType: line?._fullLayout?.yaxis?.type,
        ariaLabel: line?.getAttribute('aria-label'),
        same: line === (globalThis as any).__firstLine || ((globalThis as any).__firstLine = line, 'first'),
        linePath: doc.querySelector('[data-testid="line"] .scatterlayer path.js-line')?.getAttribute('d')?.length ?? 0,
      };
    });
  const s0 = await state();
  assert.equal(s0.plots, 2);
  assert.ok(s0.linePoints > 1000 && s0.linePoints <= 2 * 1200 + 2, `drawn points ${s0.linePoints}`);
  assert.ok(Math.abs(s0.lineMax - (Math.exp(-54_321 / 20_000) * (1 + 0.1 * Math.sin(54_321)) + 3)) < 1e-9, `the spike at step 54321 survives downsampling (max ${s0.lineMax})`);
  assert.ok(s0.linePath > 0, 'the curve is drawn');
  assert.deepEqual([s0.heatRows, s0.heatCols], [256, 256]);
  assert.equal(s0.heatScale, '#440154', 'viridis');
  assert.equal(s0.paper, '#ffffff');
  assert.equal(s0.xTitle, 'Step');
  assert.equal(s0.yType, 'log');
  assert.equal(s0.ariaLabel, 'Loss curve');
  assert.equal(s0.same, 'first');

  await page.getByRole('button', { name: 'Update data' }).click();
  await page.waitForFunction((y) => (globalThis as any).document.querySelector('[data-testid="line"] .js-plotly-plot')?.data?.[0]?.y?.[10] !== y, s0.lineY10);
  const s1 = await state();
  assert.equal(s1.same, true, 'Plotly.react redrew the same graph div');
  assert.equal(s1.plots, 2);

  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="heat"] .js-plotly-plot')?._fullLayout?.paper_bgcolor === '#0d1117');

  await page.getByRole('button', { name: 'Toggle plots' }).click();
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.js-plotly-plot').length === 0);
  const leftovers = await page.evaluate(() => (globalThis as any).document.querySelectorAll('.plotly, .hoverlayer, .svg-container').length);
  assert.equal(leftovers, 0, 'purged: no Plotly nodes left');
  assert.deepEqual(problems, [], 'no errors and no CSP refusals');
  await page.close();
});

test('model view: engine estimate matches a real model; toggles redraw the diagram; last component stays on; field errors shown in place', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openModelView();
  const M = DEFAULT_DRAFT.width;
  const L = DEFAULT_DRAFT.depth;
  const expected = createLino({ dims: 2, inChannels: DEFAULT_DRAFT.inChannels + 2, outChannels: DEFAULT_DRAFT.outChannels, width: M, depth: L, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] });
  const expectedParams = expected.numParams();
  expected.dispose();
  assert.equal(await page.getByTestId('wasm-warning').count(), 0, 'the default configuration fits');
  assert.equal(await page.getByTestId('est-params').textContent(), expectedParams.toLocaleString('en-US'));
  assert.equal(await page.getByTestId('branch-reflection').getAttribute('data-state'), 'on');
  // Channels come from the data: shown derived (no input to type into), and the estimate's note
  // names no source file.
  assert.equal(await page.getByTestId('field-inChannels').count(), 0);
  assert.equal(await page.getByTestId('model-channels').textContent(), '2D, 1 in → 1 out');
  assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /\.ts\b|main\//, 'no source path in the view');
  await page.getByTestId('model-data').selectOption('navier-stokes');
  await page.getByTestId('model-channels').filter({ hasText: '2D, 10 in → 1 out' }).waitFor();
  await page.waitForFunction((n) => (globalThis as any).document.querySelector('[data-testid="est-params"]')?.textContent !== n, expectedParams.toLocaleString('en-US'));
  await page.getByTestId('model-data').selectOption('darcy');
  await page.getByTestId('est-params').filter({ hasText: expectedParams.toLocaleString('en-US') }).waitFor({ timeout: 30_000 });

  await page.getByTestId('toggle-reflection').uncheck();
  await page.getByTestId('branch-reflection').and(page.locator('[data-state="off"]')).waitFor();
  assert.match((await page.getByTestId('gate-k').textContent()) ?? '', /K = 2: refraction, scattering/);
  await page.waitForFunction((n) => (globalThis as any).document.querySelector('[data-testid="est-params"]')?.textContent !== n, expectedParams.toLocaleString('en-US'));
  const fewer = Number((await page.getByTestId('est-params').textContent())!.replace(/,/g, ''));
  // per block: reflection's v_proj (M*M + M) and one gate output (2M + 1)
  assert.equal(expectedParams - fewer, L * (M * M + M + 2 * M + 1), `${expectedParams} -> ${fewer}`);

  await page.getByTestId('toggle-refraction').uncheck();
  await page.getByTestId('toggle-scattering').click(); // refused: uncheck() would throw as the box stays checked
  assert.equal(await page.getByTestId('toggle-scattering').isChecked(), true, 'the last component cannot be turned off');
  assert.match((await page.getByTestId('components-msg').textContent()) ?? '', /last component on/);
  await page.getByTestId('toggle-reflection').check();

  // A configuration that does not fit in wasm's 4 GiB: full scattering on a 128x128 grid.
  await page.getByRole('radio', { name: 'full' }).check();
  await page.getByTestId('field-gridSide').fill('128');
  await page.getByTestId('field-batch').fill('16');
  await page.getByTestId('wasm-warning').waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('wasm-warning').textContent()) ?? '', /more than the 4\.00 GiB the wasm\s+backend can address/);
  assert.match((await page.getByTestId('branch-scattering').textContent()) ?? '', /full: pairwise softmax/);
  await page.screenshot({ path: `${SHOTS}/model-wasm-warning.png` });
  await page.getByRole('radio', { name: 'efficient' }).check();
  await page.getByTestId('field-gridSide').fill('32');
  await page.getByTestId('field-batch').fill('2');
  await page.getByTestId('wasm-warning').waitFor({ state: 'detached', timeout: 30_000 });

  // A bad value: the message sits next to the field and the estimate waits.
  await page.getByTestId('field-width').fill('0');
  const err = page.locator('.field', { has: page.getByTestId('field-width') }).locator('.error-message');
  assert.match((await err.textContent()) ?? '', /Width must be a whole number from 1 to 1024/);
  assert.equal(await page.getByTestId('field-width').getAttribute('aria-invalid'), 'true');
  await page.getByTestId('field-width').fill('32');
  await page.getByTestId('est-params').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('export: a plot to PNG (chosen size and scale), SVG and vector PDF in the workspace, axis titles as text in SVG and PDF, and a browser download', { skip, timeout: 240_000 }, async (tc) => {
  const { page, problems } = await openModelView();
  const plot = page.getByTestId('memory-plot');
  await plot.locator('.js-plotly-plot .main-svg').first().waitFor({ timeout: 30_000 });
  const exportsDir = join(t.workspace, 'exports');
  const before = new Set(readdirSync(exportsDir));
  const newFile = (ext: string) => readdirSync(exportsDir).filter((n) => !before.has(n) && n.endsWith(`.${ext}`));

  await plot.getByLabel('Width').fill('600');
  await plot.getByLabel('Height').fill('400');
  await plot.getByLabel('PNG scale').selectOption('2');
  for (const fmt of ['PNG', 'SVG', 'PDF']) {
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await plot.getByRole('button', { name: `Export Memory per training step vs grid size as ${fmt}` }).click();
    await plot.getByTestId('export-status').filter({ hasText: new RegExp(`Saved exports/.*\\.${fmt.toLowerCase()}$`) }).waitFor({ timeout: 60_000 });
    const d = await download;
    assert.match(d.suggestedFilename(), new RegExp(`^memory-per-training-step-vs-grid-size-\\d{8}T\\d{6}Z(-\\d+)?\\.${fmt.toLowerCase()}$`));
  }

  const [png] = newFile('png');
  const pngBytes = readFileSync(join(exportsDir, png!));
  assert.deepEqual([...pngBytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  assert.deepEqual([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)], [1200, 800], 'IHDR: 600x400 at scale 2');

  const [svgName] = newFile('svg');
  const svg = readFileSync(join(exportsDir, svgName!), 'utf8');
  assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*width="600"[^>]*height="400"/);
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  for (const title of ['Grid points per axis', 'Peak memory per training step (GiB)']) {
    assert.ok(svg.includes(`>${title}</text>`), `SVG has the axis title "${title}" as text`);
  }
  assert.ok(svg.includes('fill: rgb(255, 255, 255)') || svg.includes('fill="#ffffff"') || /rgb\(255, 255, 255\)/.test(svg), 'exported in the light theme');

  const [pdfName] = newFile('pdf');
  const pdf = readFileSync(join(exportsDir, pdfName!));
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  assert.match(pdf.subarray(-32).toString('latin1'), /%%EOF\s*$/);
  const mediaBox = /\/MediaBox \[([^\]]*)\]/.exec(pdf.toString('latin1'))?.[1];
  assert.deepEqual(mediaBox?.trim().split(/\s+/).map(Number), [0, 0, 600, 400], 'one 600x400 pt page');
  if (!existsSync(PDFTOTEXT)) {
    if (process.env.CI) assert.fail(`${PDFTOTEXT} is required in CI to check the PDF's text`);
    tc.skip(`the PDF's text was not checked: pdftotext not found at ${PDFTOTEXT} (install poppler-utils)`);
  } else {
    const r = spawnSync(PDFTOTEXT, [join(exportsDir, pdfName!), '-'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const text = r.stdout.replace(/\s+/g, ' ');
    for (const title of ['Grid points per axis', 'Peak memory per training step (GiB)', 'wasm limit (4 GiB)']) {
      assert.ok(text.includes(title), `PDF has "${title}" as text; pdftotext gave: ${text.slice(0, 400)}`);
    }
  }
  // The workspace summary lists them.
  await page.getByRole('button', { name: 'Workspace', exact: true }).click();
  assert.deepEqual(problems, []);
  await page.close();
});

test('export: the model size table to LaTeX (booktabs) and CSV in the workspace', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openModelView();
  const exportsDir = join(t.workspace, 'exports');
  const before = new Set(readdirSync(exportsDir));
  const params = (await page.getByTestId('est-params').textContent())!.replace(/,/g, '');
  for (const [fmt, ext] of [['LaTeX', 'tex'], ['CSV', 'csv']]) {
    await page.getByRole('button', { name: `Export LiNO model size and cost as ${fmt}` }).click();
    await page.getByTestId('table-export-status').filter({ hasText: new RegExp(`Saved exports/lino-model-size-and-cost-.*\\.${ext}$`) }).waitFor({ timeout: 30_000 });
  }
  const added = readdirSync(exportsDir).filter((n) => !before.has(n));
  const tex = readFileSync(join(exportsDir, added.find((n) => n.endsWith('.tex'))!), 'utf8');
  assert.match(tex, /\\begin\{tabular\}\{lrrrrr\}\n\\toprule\nConfiguration & Grid & Batch & Parameters & Peak memory \/ step \(GiB\) & GFLOP \/ step \\\\\n\\midrule\n/);
  // The Model draft persists across the file's tests (and reloads), so the row is the draft as it is now.
  assert.match(tex, new RegExp(`LiNO M=\\d+ L=\\d+, [a-z+]+ \\((efficient|full) scattering\\), coords & \\d+x\\d+ & \\d+ & ${params} & `));
  assert.match(tex, /\\bottomrule\n\\end\{tabular\}/);
  const csv = readFileSync(join(exportsDir, added.find((n) => n.endsWith('.csv'))!), 'utf8').split('\r\n');
  assert.equal(csv[0], 'Configuration,Grid,Batch,Parameters,Peak memory / step (GiB),GFLOP / step');
  assert.match(csv[1]!, new RegExp(`^"LiNO M=\\d+ L=\\d+, [a-z+]+ \\((efficient|full) scattering\\), coords",\\d+x\\d+,\\d+,${params},[\\d.]+,[\\d.]+$`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('datasets view: generate a tiny Darcy set with progress, preview samples as heatmaps, cancel a long generation', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(t.host.url);
  await page.getByRole('button', { name: 'Datasets', exact: true }).click();
  await page.getByRole('heading', { name: 'Datasets', level: 1 }).waitFor();
  await page.getByTestId('gen-benchmark').selectOption('darcy');
  await page.getByTestId('gen-preset').selectOption('tiny');
  assert.equal(await page.getByTestId('gen-samples').inputValue(), '6', "the tiny preset's sample count");
  // The parameter list shows what will be generated: the typed sample count, the preset's beside it.
  await page.getByText('Preset parameters').click();
  assert.equal(await page.getByTestId('gen-param-samples').textContent(), '6');
  await page.getByTestId('gen-samples').fill('4');
  assert.equal(await page.getByTestId('gen-param-samples').textContent(), '4 (preset 6)');
  await page.getByTestId('gen-samples').fill('6');
  await page.getByTestId('gen-start').click();
  await page.getByTestId('gen-job-done').waitFor({ timeout: 90_000 });
  const list = page.getByTestId('datasets-list');
  await list.getByRole('button', { name: /^Darcy · s = 29/ }).first().click();
  const preview = page.getByTestId('sample-preview');
  // the training split: a tiny set of 6 keeps one sample for test, leaving one for validation
  await preview.getByLabel('Split').selectOption('train');
  await preview.getByTestId('sample-info').filter({ hasText: /Grid 29 × 29, \d+ train rows/ }).waitFor({ timeout: 30_000 });
  await preview.locator('[data-testid="preview-input"] .js-plotly-plot .main-svg').first().waitFor({ timeout: 30_000 });
  const z = () =>
    page.evaluate(() => {
      const doc = (globalThis as any).document;
      const a = doc.querySelector('[data-testid="preview-input"] .js-plotly-plot');
      const b = doc.querySelector('[data-testid="preview-target"] .js-plotly-plot');
      return { inRows: a?.data?.[0]?.z?.length, inCols: a?.data?.[0]?.z?.[0]?.length, target: JSON.stringify(b?.data?.[0]?.z?.[5]) };
    });
  const z0 = await z();
  assert.deepEqual([z0.inRows, z0.inCols], [29, 29]);
  // Next sample: the target field changes.
  await preview.getByRole('button', { name: 'Next' }).click();
  await page.waitForFunction((prev) => JSON.stringify((globalThis as any).document.querySelector('[data-testid="preview-target"] .js-plotly-plot')?.data?.[0]?.z?.[5]) !== prev, z0.target);
  await assertAccessible(page, 'Datasets view with a sample preview');

  // A heatmap exports to a vector PDF too: the field is an embedded image, the axis titles text.
  const exportsDir = join(t.workspace, 'exports');
  const known = new Set(readdirSync(exportsDir));
  const input = page.getByTestId('preview-input');
  await input.getByRole('button', { name: /as PDF$/ }).click();
  await input.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.pdf$/ }).waitFor({ timeout: 60_000 });
  const pdfName = readdirSync(exportsDir).find((n) => !known.has(n) && n.endsWith('.pdf'))!;
  const pdf = readFileSync(join(exportsDir, pdfName)).toString('latin1');
  assert.match(pdf, /\/Subtype \/Image/, 'the heatmap is embedded as an image');
  if (existsSync(PDFTOTEXT)) {
    const text = spawnSync(PDFTOTEXT, [join(exportsDir, pdfName), '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    for (const title of ['x index', 'y index', 'coeff']) assert.ok(text.includes(title), `"${title}" as text in the heatmap PDF: ${text.slice(0, 300)}`);
  }
  await page.screenshot({ path: `${SHOTS}/datasets-preview.png` });

  // A 1D benchmark previews as lines: input and target over the grid.
  await page.getByTestId('gen-benchmark').selectOption('burgers');
  await page.getByTestId('gen-start').click();
  await page.getByTestId('gen-job-done').filter({ hasText: /burgers/ }).waitFor({ timeout: 90_000 });
  await list.getByRole('button', { name: /^Burgers/ }).first().click();
  await preview.getByTestId('sample-info').filter({ hasText: /Grid 64,/ }).waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="preview-lines"] .js-plotly-plot')?.data?.length === 2);
  const lines = await page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="preview-lines"] .js-plotly-plot').data.map((d: any) => [d.name, d.y.length]));
  assert.deepEqual(lines.map((l: [string, number]) => l[1]), [64, 64]);
  assert.match(lines[0][0], /^input /);
  assert.match(lines[1][0], /^target /);

  // A long generation cancels from the UI.
  await page.getByTestId('gen-benchmark').selectOption('darcy');
  await page.getByTestId('gen-preset').selectOption('quick');
  await page.getByTestId('gen-start').click();
  const running = page.getByTestId('gen-job-running');
  await running.waitFor({ timeout: 30_000 });
  await running.getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('gen-job-cancelled').waitFor({ timeout: 30_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('exports.save refuses a path in the name with a readable message', { skip, timeout: 240_000 }, async () => {
  await assert.rejects(t.service.call('exports.save', { name: '../escape.svg', mime: 'image/svg+xml', data: 'PHN2Zy8+' }), /invalid parameter 'name': a file name without path separators/);
  assert.equal(existsSync(join(t.workspace, 'escape.svg')), false);
});

test('accessibility and themes: every view passes axe (no serious/critical) in light and dark, fits 1366x768, and is keyboard reachable', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(t.host.url);
  await page.getByTestId('engine-backend').waitFor({ timeout: 60_000 }).catch(async (e) => {
    throw new Error(`${e.message}\npage: ${(await page.locator("body").innerText()).slice(0, 800)}\nproblems: ${problems.join('; ')}`);
  });
  const views = await page.locator('nav[aria-label="Views"] button.nav').allTextContents();
  assert.deepEqual(views, await registeredViewLabels(), 'the navigation lists every registered view, so every one is audited');
  for (const theme of ['light', 'dark'] as const) {
    const current = await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme);
    if (current !== theme) await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
    await page.waitForFunction((th) => (globalThis as any).document.documentElement.dataset.theme === th, theme);
    for (const v of views) {
      await page.getByRole('button', { name: v, exact: true }).click();
      await page.getByRole('heading', { name: v, level: 1 }).waitFor();
      if (v === 'Model') await page.getByTestId('memory-plot').locator('.main-svg').first().waitFor({ timeout: 60_000 });
      await assertAccessible(page, `${v} view (${theme} theme)`);
      const fit = await page.evaluate(() => {
        const d = (globalThis as any).document;
        const main = d.querySelector('main.content');
        return { doc: d.documentElement.scrollWidth, main: main.scrollWidth - main.clientWidth };
      });
      assert.ok(fit.doc <= 1366 && fit.main <= 1, `${v} (${theme}) fits 1366 px wide: ${JSON.stringify(fit)}`);
      await page.screenshot({ path: `${SHOTS}/${v.toLowerCase()}-${theme}.png`, fullPage: false });
      if (v === 'Model') {
        await page.getByTestId('block-diagram').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/model-diagram-${theme}.png` });
        await page.locator('main.content').evaluate((el: any) => el.scrollTo(0, 0));
      }
    }
  }
  // Keyboard: from the top of the page, Tab reaches the navigation, the theme switch, every
  // model control and the export buttons, and Enter on a nav button switches views.
  await page.getByRole('button', { name: 'Workspace', exact: true }).click();
  await page.getByRole('button', { name: 'Model', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Model', level: 1 }).waitFor();
  await page.getByTestId('memory-plot').locator('.main-svg').first().waitFor({ timeout: 60_000 });
  await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
  const reached = new Set<string>();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    reached.add(
      await page.evaluate(() => {
        const el = (globalThis as any).document.activeElement;
        return el ? `${el.tagName.toLowerCase()}|${el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? el.textContent?.trim() ?? ''}` : '';
      }),
    );
  }
  const has = (re: RegExp) => [...reached].some((s) => re.test(s));
  for (const re of [/^button\|Model$/, /^button\|(Dark|Light) theme$/, /field-width/, /toggle-scattering/, /toggle-coordinates/, /Export .* as PDF/]) {
    assert.ok(has(re), `Tab reaches ${re}; reached: ${[...reached].join(' ; ')}`);
  }
  assert.deepEqual(problems, []);
  // The audit is not blind: an unnamed button (critical: button-name) makes it fail.
  await page.evaluate(() => (globalThis as any).document.querySelector('main').appendChild((globalThis as any).document.createElement('button')));
  await assert.rejects(assertAccessible(page, 'a page with an unnamed button'), /critical button-name/);
  await page.close();
});
