// End to end for the Ablation view in Debian's Chromium against browser mode with the real engine:
// from a tiny base run (synthetic 8×8 data, one epoch, M = 4, L = 1) launch the full model and the
// w/o reflection / refraction / scattering variants with 2 seeds each (8 runs: one grid sweep over
// the components, the ablation being a preset of a sweep) and check the launch at once: the sweep is
// listed and its trials are the variants' runs, before any has trained. The second test waits for
// them and checks the table against runs.group, the bar chart, the error-field grid (one shared
// cividis axis), LaTeX and SVG exports, that a fresh page finds the ablation again, and an axe audit
// A third test evaluates the variants' branch spectra and checks both figures against the kept
// evaluations and the table's CSV export.
// (the table's arithmetic and the figure's layout are unit tests: test/unit/renderer/ablation.test.ts;
// the sweep through the engine: test/integration/sweep/ablation-engine.test.ts).
// Screenshot: test-results/screenshots/ablation.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { trainedId } from '../helpers/trained-run';
import { assertAccessible } from '../helpers/axe';
import { openPage as openSessionPage, gotoView } from '../helpers/page';
import { COMPONENT_COLORS, NEUTRAL_COLOR } from '../../renderer/src/plots/component-colors';

const PDFTOTEXT = '/usr/bin/pdftotext';
// The sweep's nine tiny runs in the engine thread (train.start's path, as the Sweeps e2e): each
// run's own worker start-up took about a minute on a loaded 2-core machine, past the timeout.
process.env.LINO_TRAIN_IN_THREAD = '1';
// and the error fields' four evaluations too (the evaluate job itself; its worker is the lanes tests')
process.env.LINO_JOBS_IN_THREAD = '1';
let baseId = '';
const suite = browserSuite(async (host) => {
  baseId = await trainedId(host.service, { name: 'abl base', data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2, seed: 5 }, 60_000);
});
const skip = suite.skip;

async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const r = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(r.page, 'Ablation');
  return r;
}

type Runs = { id: string; name: string; state: string; group: string | null; seed: number | null }[];
const listRuns = async () => (await suite.host.service.call('runs.list', {})) as Runs;
const VARIANTS = ['full', 'no-reflection', 'no-refraction', 'no-scattering'];
const LABELS = ['LiNO (full)', 'LiNO w/o reflection', 'LiNO w/o refraction', 'LiNO w/o scattering'];

let mine: Runs = [];

test('ablation: launching the three "without" variants and the full model with 2 seeds from a tiny run is one grid sweep whose trials are the variants\' seed groups, listed before any trains', { skip, timeout: 120_000 }, async () => {
  const { page, problems } = await openPage();
  await page.getByTestId('run-picker').selectOption(baseId);
  await page.getByTestId('ablation-seeds').fill('2');
  const launch = page.getByTestId('ablation-launch');
  await launch.filter({ hasText: 'Launch 4 variants (8 runs)' }).waitFor({ timeout: 30_000 });
  await launch.click();
  await launch.filter({ hasText: 'All variants launched' }).waitFor({ timeout: 30_000 });

  // Eight runs in four deterministic seed groups, seeds 5 and 6, one component off in each.
  mine = (await listRuns()).filter((r) => r.group?.startsWith(`${baseId}/`));
  assert.deepEqual([...new Set(mine.map((r) => r.group))].sort(), VARIANTS.map((v) => `${baseId}/${v}`).sort());
  assert.deepEqual(mine.map((r) => r.seed).sort(), [5, 5, 5, 5, 6, 6, 6, 6]);
  const cfg = (await suite.host.service.call('runs.get', { id: mine.find((r) => r.group === `${baseId}/no-refraction`)!.id })) as { config: { model: { components: string[]; width: number } } };
  assert.deepEqual(cfg.config.model.components, ['reflection', 'scattering']);
  assert.equal(cfg.config.model.width, 4);
  // The launch is one sweep (Sweeps view, sweeps.list): a grid over the components whose trials are these runs.
  const sweeps = (await suite.host.service.call('sweeps.list', {})) as { id: string; name: string; method: string; trials: number }[];
  const sweep = sweeps.find((x) => x.name === `ablation ${baseId}`);
  assert.ok(sweep && sweep.method === 'grid' && sweep.trials === 8, JSON.stringify(sweeps));
  const detail = (await suite.host.service.call('sweeps.get', { id: sweep.id })) as { state: { trials: { runId: string }[] } };
  assert.deepEqual(detail.state.trials.map((t) => t.runId).sort(), mine.map((r) => r.id).sort());
  // Progress shows each run's state (queued one after another by the engine).
  await page.getByTestId('ablation-progress-no-scattering').getByText(/seed 6: (queued|running|done)/).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('ablation: once the variants have trained, table = runs.group, bars with ±1 std, error-field grid on one scale, LaTeX, SVG and PDF export; Gates and Runs name them after the base', { skip, timeout: 420_000 }, async () => {
  assert.equal(mine.length, 8, 'the launch (the test above) started the eight runs');
  const { page, problems } = await openPage();
  await page.getByTestId('run-picker').selectOption(baseId);
  // All finish (queued one after another by the engine).
  const table = page.getByTestId('ablation-table');
  for (const v of VARIANTS) await table.getByTestId(`ablation-row-${v}`).getByTestId('ablation-seeds-done').filter({ hasText: /^2\/2$/ }).waitFor({ timeout: 180_000 });

  // Table rows: the four variants; mean ± std as runs.group reports it.
  assert.deepEqual(await table.locator('tbody th').allTextContents(), LABELS);
  const g = (await suite.host.service.call('runs.group', { group: `${baseId}/no-scattering` })) as { valRelL2: { mean: number; std: number }; valRelL2Decoded: { mean: number; std: number } };
  await table.getByTestId('ablation-row-no-scattering').getByTestId('ablation-mean').filter({ hasText: `${g.valRelL2.mean.toPrecision(4)} ± ${g.valRelL2.std.toPrecision(2)}` }).waitFor({ timeout: 30_000 });
  assert.match((await table.getByTestId('ablation-row-no-scattering').textContent()) ?? '', new RegExp(`${g.valRelL2Decoded.mean.toPrecision(4)} ± `));
  assert.match((await table.getByTestId('ablation-row-no-reflection').textContent()) ?? '', /[+-]\d+(\.\d+)? %/, 'difference to full in percent');
  assert.equal(await table.getByText(/^Paper/).count(), 0, 'no paper column for synthetic data');

  // Bar chart: one bar per variant with ±1 std error bars.
  await page.getByTestId('ablation-bars').locator('.main-svg').first().waitFor({ timeout: 30_000 });
  const bars = await page.evaluate(() => {
    const el = (globalThis as any).document.querySelector('[data-testid="ablation-bars"] .js-plotly-plot');
    // One bar trace per variant (its legend swatch in its colour); the measured ones on the first axes.
    const d = (el.data as any[]).filter((t) => !t.xaxis || t.xaxis === 'x');
    return { type: [...new Set(d.map((t) => t.type))], x: d.map((t) => t.x[0]), y: d.map((t) => t.y[0]), err: d.map((t) => t.error_y.array[0]), colors: d.map((t) => t.marker.color), axis: el.layout.yaxis.type };
  });
  assert.deepEqual(bars.type, ['bar']);
  assert.deepEqual(bars.x, LABELS);
  // Each "without" bar in the colour of the component it switches off (as in Gates); full is neutral.
  assert.deepEqual(bars.colors, [NEUTRAL_COLOR, COMPONENT_COLORS.reflection, COMPONENT_COLORS.refraction, COMPONENT_COLORS.scattering]);
  // A linear value axis by default (bars a few percent apart look it), log on request.
  assert.equal(bars.axis, 'linear');
  const barAxis = () => page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="ablation-bars"] .js-plotly-plot')._fullLayout.yaxis.type as string);
  assert.equal(await barAxis(), 'linear');
  await page.getByTestId('ablation-log-axis').check();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="ablation-bars"] .js-plotly-plot')?._fullLayout?.yaxis?.type === 'log');
  await page.getByTestId('ablation-log-axis').uncheck();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="ablation-bars"] .js-plotly-plot')?._fullLayout?.yaxis?.type === 'linear');
  assert.ok(Math.abs((bars.y[3] as number) - g.valRelL2.mean) < 1e-12 && Math.abs((bars.err[3] as number) - g.valRelL2.std) < 1e-12);

  // The table to LaTeX (booktabs).
  const exportsDir = join(suite.host.workspace, 'exports');
  const known = new Set(readdirSync(exportsDir));
  await page.getByRole('button', { name: 'Export Ablation as LaTeX' }).click();
  await page.getByTestId('table-export-status').filter({ hasText: /Saved exports\/ablation.*\.tex$/ }).waitFor({ timeout: 30_000 });
  const tex = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !known.has(n) && n.endsWith('.tex'))!), 'utf8');
  assert.match(tex, /\\toprule\nVariant & Component off & Seeds done & Best val relL2 \(normalized\)/);
  for (const l of LABELS) assert.match(tex, new RegExp(`^${l.replace(/[()]/g, '\\$&')} & .* \\$\\\\pm\\$ `, 'm'));
  assert.match(tex, /\\bottomrule/);

  // Error fields for the same samples: reference row + four variant rows, one column per sample.
  await page.getByTestId('ablation-fields-evaluate').click();
  await page.getByTestId('ablation-fields').locator('.main-svg').first().waitFor({ timeout: 90_000 });
  await page.waitForFunction(() => {
    const el = (globalThis as any).document.querySelector('[data-testid="ablation-fields"] .js-plotly-plot');
    return !(globalThis as any).document.querySelector('[data-testid="ablation-fields-pending"]') && el?.data?.length > 0 && el.data.length % 5 === 0;
  }, undefined, { timeout: 90_000 });
  const grid = await page.evaluate(() => {
    const el = (globalThis as any).document.querySelector('[data-testid="ablation-fields"] .js-plotly-plot');
    return { traces: el.data.map((d: any) => ({ name: d.name, axis: d.coloraxis, rows: d.z.length, cols: d.z[0].length })), cividis: el.layout.coloraxis2.colorscale[0][1], cmin: el.layout.coloraxis2.cmin };
  });
  const cols = grid.traces.filter((t: { axis: string }) => t.axis === 'coloraxis').length;
  assert.ok(cols >= 1 && cols <= 3, `${cols} sample columns`);
  assert.equal(grid.traces.length, 5 * cols, 'a reference row and one |error| row per variant, every panel present');
  assert.ok(grid.traces.every((t: { rows: number; cols: number }) => t.rows === 8 && t.cols === 8));
  assert.equal(grid.traces.filter((t: { axis: string }) => t.axis === 'coloraxis2').length, 4 * cols, 'every error panel on the one shared axis');
  assert.deepEqual([grid.cividis, grid.cmin], ['#00224e', 0]);
  assert.ok(grid.traces.some((t: { name: string }) => t.name.startsWith('|error| LiNO w/o scattering · ')));

  // Parameter counts in the table and its LaTeX export (4 variants, each its own model size).
  for (const v of VARIANTS) await table.getByTestId(`ablation-row-${v}`).locator('td').nth(4).filter({ hasText: /^[\d,]+$/ }).waitFor({ timeout: 30_000 });
  const knownTex = new Set(readdirSync(exportsDir));
  await page.getByRole('button', { name: 'Export Ablation as LaTeX' }).click();
  await page.getByTestId('table-export-status').filter({ hasText: /Saved exports\/ablation.*\.tex$/ }).waitFor({ timeout: 30_000 });
  const tex2 = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !knownTex.has(n) && n.endsWith('.tex'))!), 'utf8');
  const params = LABELS.map((l) => tex2.split('\n').find((line) => line.startsWith(`${l} & `))!.split(' & ')[5]!);
  for (const p of params) assert.match(p, /^\d+$/, `a parameter count in the LaTeX table: ${params}`);
  assert.ok(Number(params[0]) > Number(params[3]!), 'the full model has more parameters than the one without scattering');

  // The composed figure to SVG, labels kept as text.
  const before = new Set(readdirSync(exportsDir));
  const fig = page.getByTestId('ablation-fields');
  await fig.getByRole('button', { name: 'Export Ablation error fields as SVG' }).click();
  await fig.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.svg$/ }).waitFor({ timeout: 30_000 });
  const svg = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !before.has(n) && n.endsWith('.svg'))!), 'utf8');
  assert.match(svg, /^<svg/);
  for (const l of ['Reference', '|error| LiNO w/o reflection', '|error| LiNO (full)']) assert.ok(svg.includes(l), `'${l}' as text in the SVG`);
  // And to vector PDF: the panels as images, the labels as text.
  const beforePdf = new Set(readdirSync(exportsDir));
  await fig.getByRole('button', { name: 'Export Ablation error fields as PDF' }).click();
  await fig.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.pdf$/ }).waitFor({ timeout: 30_000 });
  const pdfPath = join(exportsDir, readdirSync(exportsDir).find((n) => !beforePdf.has(n) && n.endsWith('.pdf'))!);
  const pdf = readFileSync(pdfPath);
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  assert.ok((pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length >= 5 * cols, 'every panel drawn');
  if (existsSync(PDFTOTEXT)) {
    const text = spawnSync(PDFTOTEXT, [pdfPath, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    for (const l of ['Reference', '|error| LiNO w/o scattering']) assert.ok(text.includes(l), `PDF has "${l}" as text; pdftotext gave: ${text.slice(0, 300)}`);
  }

  // Switching views keeps the evaluated grid (no second evaluation).
  const evaluations = async () => ((await suite.host.service.call('jobs.list', {})) as { kind: string }[]).filter((j) => j.kind === 'evaluate').length;
  const evalCount = await evaluations();
  assert.equal(evalCount, 4, 'the full model, then the three variants at its samples');
  await page.getByRole('button', { name: 'Runs', exact: true }).click();
  await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Ablation', exact: true }).click();
  await page.getByTestId('ablation-fields').locator('.main-svg').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="ablation-fields"] .js-plotly-plot').data.length), grid.traces.length);
  assert.equal(await evaluations(), evalCount);

  await assertAccessible(page, 'Ablation view');
  const overflow = await page.evaluate(() => {
    const main = (globalThis as any).document.querySelector('main.content');
    return main.scrollWidth - main.clientWidth;
  });
  assert.ok(overflow <= 1, `fits 1366 px wide (overflow ${overflow})`);
  // The whole view in one picture: a tall window for the screenshot only.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: 1900 });
  await page.getByRole('heading', { name: 'Ablation', level: 1 }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/ablation.png` });
  if (size) await page.setViewportSize(size);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await assertAccessible(page, 'Ablation view (dark theme)');
  await page.getByRole('button', { name: 'Light theme' }).click();
  assert.deepEqual(problems, []);
  await page.close();

  // Gates: a component keeps its colour whichever others the run has (full vs w/o reflection), and
  // tau is explained as full scattering's (these runs use efficient scattering).
  const gates = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(gates.page, 'Gates');
  const gateColors = async (runId: string) => {
    await gates.page.getByTestId('run-picker').selectOption(runId);
    await gates.page.waitForFunction((n) => (globalThis as any).document.querySelector('[data-testid="alpha-bars"] .js-plotly-plot')?.data?.length === n, runId === fullRun ? 3 : 2, { timeout: 30_000 });
    return gates.page.evaluate(() => Object.fromEntries((globalThis as any).document.querySelector('[data-testid="alpha-bars"] .js-plotly-plot').data.map((d: any) => [d.name, d.marker.color])));
  };
  const fullRun = mine.find((r) => r.group === `${baseId}/full`)!.id;
  const noRefl = mine.find((r) => r.group === `${baseId}/no-reflection`)!.id;
  assert.deepEqual(await gateColors(fullRun), { reflection: COMPONENT_COLORS.reflection, refraction: COMPONENT_COLORS.refraction, scattering: COMPONENT_COLORS.scattering });
  assert.deepEqual(await gateColors(noRefl), { refraction: COMPONENT_COLORS.refraction, scattering: COMPONENT_COLORS.scattering });
  assert.match((await gates.page.getByTestId('gates-absent-tau').textContent()) ?? '', /full scattering.*this run uses efficient scattering/);

  // Runs: the ablation's groups and runs go by the base run's name, not its id.
  await gotoView(gates.page, 'Runs');
  const fullGroupRow = gates.page.getByTestId(`group-${baseId}/full`);
  await fullGroupRow.waitFor({ timeout: 30_000 });
  assert.equal(await fullGroupRow.locator('th').textContent(), 'abl base/full (2 seeds)');
  assert.equal(await fullGroupRow.locator('td').nth(1).textContent(), 'abl base/full');
  assert.match((await gates.page.getByTestId(`run-row-${fullRun}`).textContent()) ?? '', /^abl base\/full \(seed ([56])\)abl base\/full \(seed \1\)/);
  assert.deepEqual(gates.problems, []);
  await gates.page.close();

  // A fresh page (as after a restart) finds the same ablation from the group names alone.
  const again = await openPage();
  await again.page.getByTestId('run-picker').selectOption(mine[0]!.id);
  await again.page.getByTestId('ablation-launch').filter({ hasText: 'All variants launched' }).waitFor({ timeout: 30_000 });
  await again.page.getByTestId('ablation-row-full').getByTestId('ablation-seeds-done').filter({ hasText: /^2\/2$/ }).waitFor({ timeout: 30_000 });
  assert.deepEqual(again.problems, []);
  await again.page.close();
});

test('ablation: branch spectra across the variants, per band shares and overlaid spectra equal to the kept evaluations, CSV with the conventions named', { skip, timeout: 240_000 }, async () => {
  assert.equal(mine.length, 8, 'the variants (the tests above) trained');
  const { page, problems } = await openPage();
  await page.getByTestId('run-picker').selectOption(baseId);
  const go = page.getByTestId('ablation-branches-evaluate');
  await go.filter({ hasText: 'Evaluate branch spectra (4 variants)' }).waitFor({ timeout: 30_000 });
  await go.click();
  await go.filter({ hasText: 'Branch spectra evaluated' }).waitFor({ timeout: 180_000 });
  const plotData = (id: string) => page.evaluate((t) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${t}"] .js-plotly-plot`);
    return el?._fullLayout ? el.data.map((d: any) => ({ name: d.name, xaxis: d.xaxis, x: Array.from(d.x), y: Array.from(d.y) })) : null;
  }, id);
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="ablation-branch-spectra"] .js-plotly-plot')?.data?.length === 9, undefined, { timeout: 30_000 });
  // the kept evaluations (runs.evaluation with diagnostics) of each variant's first finished seed
  const firstDoneOf = (v: string) => mine.filter((r) => r.group === `${baseId}/${v}`).sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0))[0]!.id;
  const kept = await Promise.all(VARIANTS.map(async (v) => (await suite.host.service.call('runs.evaluation', { id: firstDoneOf(v), checkpoint: 'best', split: 'val', diagnostics: true } as never)) as { branchSpectra: { blocks: { components: string[]; spectra: Record<string, number[]>; bandShare: Record<string, Record<string, number | null>> }[] } }));
  const lines = (await plotData('ablation-branch-spectra'))!;
  const want = VARIANTS.flatMap((_, i) => kept[i]!.branchSpectra.blocks[0]!.components.map((k) => ({ name: `${LABELS[i]} · ${k}`, y: kept[i]!.branchSpectra.blocks[0]!.spectra[k]!.map((e) => (e > 0 ? e : null)) })));
  assert.deepEqual(lines.map((l: { name: string; y: unknown[] }) => ({ name: l.name, y: l.y })), want);
  const bars = (await plotData('ablation-branch-shares'))!;
  assert.equal(bars.length, 9, 'per band a panel, per branch a trace');
  const lowRefr = bars.find((b: { name: string; xaxis: string }) => b.name === 'refraction' && b.xaxis === 'x')!;
  assert.deepEqual(lowRefr.x, LABELS);
  assert.deepEqual(lowRefr.y, kept.map((k) => k.branchSpectra.blocks[0]!.bandShare.refraction?.low ?? null));
  assert.equal(bars.find((b: { name: string; xaxis: string }) => b.name === 'reflection' && b.xaxis === 'x')!.y[1], null, 'no reflection bar without reflection');
  // the table to CSV: both relL2 conventions and the band edges named in the header, one row per variant and branch
  const exportsDir = join(suite.host.workspace, 'exports');
  const known = new Set(readdirSync(exportsDir));
  await page.getByRole('button', { name: 'Export Ablation branch spectra as CSV' }).click();
  await page.getByTestId('table-export-status').filter({ hasText: /Saved exports\/ablation-branch-spectra.*\.csv$/ }).waitFor({ timeout: 30_000 });
  const csv = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !known.has(n) && n.endsWith('.csv'))!), 'utf8').trim().split(/\r?\n/);
  assert.match(csv[0]!, /^variant,run,relL2 \(normalized\),relL2 \(decoded\),block,branch,energy share low \(k<4\),/);
  assert.equal(csv.length, 1 + 9);
  // both figures export (SVG), their text kept
  const before = new Set(readdirSync(exportsDir));
  const fig = page.getByTestId('ablation-branch-shares');
  await fig.getByRole('button', { name: 'Export Ablation branch energy shares per band, block 1 as SVG' }).click();
  await fig.getByTestId('export-status').filter({ hasText: /Saved exports\/.*\.svg$/ }).waitFor({ timeout: 30_000 });
  const svg = readFileSync(join(exportsDir, readdirSync(exportsDir).find((n) => !before.has(n) && n.endsWith('.svg'))!), 'utf8');
  assert.ok(svg.includes('LiNO w/o scattering') && svg.includes('refraction'), 'labels as text in the SVG');
  await assertAccessible(page, 'Ablation view with branch spectra');
  assert.deepEqual(problems, []);
  await page.close();
});
