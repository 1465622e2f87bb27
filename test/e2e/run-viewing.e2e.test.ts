// End to end for run viewing in Debian's Chromium against browser mode with the real engine: two
// tiny runs trained through the API, then the Training view's axis toggles (x by step, epoch or
// wall time; linear/log per axis; persisted), the gradient-norm and throughput/memory plots, and in
// Runs the curves' CSV export, the hyperparameter parcoords, notes and tags with search, and a
// checkpoint download. Checks compare plotly's data/layout with the stored records, not pixels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EpochMetrics, RunSummary, StepMetrics } from '../../main/api/contract';
import { trainedId } from '../helpers/trained-run';
import { browserSuite } from '../helpers/browser-suite';
import { openPage as openSessionPage, gotoView } from '../helpers/page';
import { CURVE_COLUMNS, curveRows } from '../../renderer/src/logic/curves-csv';
import { epochX, stepX } from '../../renderer/src/logic/curve-axes';
import { toCsv } from '../../renderer/src/export/table';

const runIds: string[] = [];
const CONFIGS = [
  { name: 'rv narrow', model: { width: 4, depth: 1 }, optimizer: { lr: 2e-3 }, seed: 3 },
  { name: 'rv wide', model: { width: 8, depth: 2, scattering: 'full' }, optimizer: { lr: 5e-3 }, seed: 4 },
];

const suite = browserSuite(async (host) => {
  for (const c of CONFIGS) runIds.push(await trainedId(host.service, { epochs: 2, batchSize: 1, data: { kind: 'synthetic', grid: [8, 8], train: 3, val: 2 }, ...c }));
});
const skip = suite.skip;
const openPage = () => openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
const call = <T>(m: string, p: unknown) => suite.host.service.call(m as never, p as never) as Promise<T>;

async function records(id: string): Promise<{ steps: StepMetrics[]; epochs: EpochMetrics[] }> {
  const r = await call<{ records: (StepMetrics | EpochMetrics)[] }>('runs.metrics', { id });
  return { steps: r.records.filter((x): x is StepMetrics => x.type === 'step'), epochs: r.records.filter((x): x is EpochMetrics => x.type === 'epoch') };
}

/** Plotly's data and full layout on the graph under a test id. */
function plot(page: Page, testId: string): Promise<{ data: any[]; xType: string; yType: string; xTitle: string } | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    if (!el?.data || !el._fullLayout) return null;
    // No named helpers in here: the page has no __name (tsx keeps function names).
    const data = el.data.map((d: any) => {
      const [x, y] = [d.x, d.y].map((v: any) => (v && typeof v !== 'string' && typeof v.length === 'number' ? Array.from(v) : v));
      return { ...d, x, y, dimensions: d.dimensions?.map((m: any) => ({ ...m, values: Array.from(m.values ?? []) })) };
    });
    const t = el._fullLayout.xaxis?.title;
    return { data, xType: el._fullLayout.xaxis?.type, yType: el._fullLayout.yaxis?.type, xTitle: typeof t === 'string' ? t : t?.text };
  }, testId);
}

async function waitPlot(page: Page, testId: string, ok: (p: NonNullable<Awaited<ReturnType<typeof plot>>>) => boolean, what: string) {
  for (const t0 = Date.now(); ; await page.waitForTimeout(100)) {
    const p = await plot(page, testId);
    if (p && ok(p)) return p;
    if (Date.now() - t0 > 20_000) throw new Error(`${testId}: timed out waiting for ${what} (last: ${JSON.stringify(p && { xType: p.xType, yType: p.yType, xTitle: p.xTitle })})`);
  }
}

const radio = (page: Page, group: string, value: string) => page.getByTestId(group).locator(`input[value="${value}"]`);

test('training view: x by step, epoch and wall time, linear/log per axis (persisted), gradient norm and throughput/memory per epoch', { skip, timeout: 240_000 }, async () => {
  const id = runIds[0]!;
  const rec = await records(id);
  let { page, problems } = await openPage();
  await gotoView(page, 'Training');
  await page.getByTestId('run-picker').selectOption(id);
  await page.getByTestId('curve-points').filter({ hasText: new RegExp(`^${rec.steps.length} steps, 2 epochs recorded$`) }).waitFor({ timeout: 30_000 });

  // Defaults: by step, log y.
  let loss = await waitPlot(page, 'loss-plot', (p) => p.data[0].x.length === rec.steps.length, 'the steps');
  assert.deepEqual([loss.xType, loss.yType, loss.xTitle], ['linear', 'log', 'Optimizer step']);
  assert.deepEqual(loss.data[0].x, rec.steps.map((s) => s.step));
  // Gradient norm: the raw trace is every stored step's gradNorm; the rate on the second axis.
  const grad = await waitPlot(page, 'grad-plot', (p) => p.data[0].y.length === rec.steps.length, 'gradient norms');
  assert.deepEqual(grad.data[0].y, rec.steps.map((s) => s.gradNorm));
  assert.deepEqual([grad.data[2].name, grad.data[2].yaxis, grad.data[2].y], ['learning rate', 'y2', rec.steps.map((s) => s.lr)]);
  assert.ok(rec.steps.every((s) => Number.isFinite(s.gradNorm) && s.gradNorm > 0));
  // Throughput and memory over epochs, from the epoch records.
  const sys = await waitPlot(page, 'system-plot', (p) => p.data[0].y.length === 2, 'epochs');
  // MiB or GiB by the largest value (a loaded machine's engine can pass 1 GiB of RSS)
  const unit = Math.max(...rec.epochs.flatMap((e) => [e.peakRssBytes, e.tfBytes])) >= 2 ** 30 ? { name: 'GiB', div: 2 ** 30 } : { name: 'MiB', div: 2 ** 20 };
  assert.deepEqual(sys.data.map((d) => d.name), ['samples / s', `peak RSS (${unit.name})`, `tensors (${unit.name})`]);
  assert.deepEqual(sys.data[0].y, rec.epochs.map((e) => e.samplesPerSec));
  assert.deepEqual(sys.data[1].y, rec.epochs.map((e) => e.peakRssBytes / unit.div));
  assert.deepEqual(sys.data[2].y, rec.epochs.map((e) => e.tfBytes / unit.div));

  // Each toggle changes what is drawn.
  await radio(page, 'loss-y-scale', 'linear').check();
  loss = await waitPlot(page, 'loss-plot', (p) => p.yType === 'linear', 'a linear loss axis');
  await radio(page, 'epoch-y-scale', 'linear').check();
  await waitPlot(page, 'epoch-plot', (p) => p.yType === 'linear', 'a linear relL2 axis');
  await radio(page, 'x-scale', 'log').check();
  await waitPlot(page, 'loss-plot', (p) => p.xType === 'log', 'a log x axis');
  await radio(page, 'x-mode', 'epoch').check();
  loss = await waitPlot(page, 'loss-plot', (p) => p.xTitle === 'Epoch', 'x by epoch');
  assert.deepEqual(loss.data[0].x, stepX(rec.steps, rec.epochs, 'epoch'));
  assert.equal(loss.data[0].x.at(-1), 2, 'the last step ends epoch 2');
  await radio(page, 'x-mode', 'wall').check();
  loss = await waitPlot(page, 'loss-plot', (p) => /^Wall time/.test(p.xTitle), 'x by wall time');
  assert.deepEqual(loss.data[0].x, stepX(rec.steps, rec.epochs, 'wall'));
  // Per-epoch plots have their own x: by epoch until asked otherwise.
  let epochPlot = await waitPlot(page, 'epoch-plot', (p) => p.xTitle === 'Epoch', 'epochs by number');
  assert.deepEqual(epochPlot.data.find((d) => d.name === 'val relL2 (normalized)').x, [1, 2]);
  await radio(page, 'epoch-x-mode', 'step').check();
  epochPlot = await waitPlot(page, 'epoch-plot', (p) => p.xTitle === 'Optimizer step', 'epochs by step');
  assert.deepEqual(epochPlot.data.find((d) => d.name === 'val relL2 (normalized)').x, epochX(rec.steps, rec.epochs, 'step'));
  assert.equal(epochPlot.data.find((d) => d.name === 'val relL2 (normalized)').x.at(-1), rec.steps.at(-1)!.step);
  await radio(page, 'epoch-x-mode', 'wall').check();
  epochPlot = await waitPlot(page, 'epoch-plot', (p) => /^Wall time/.test(p.xTitle), 'epochs by wall time');
  assert.deepEqual(epochPlot.data.find((d) => d.name === 'val relL2 (normalized)').x, epochX(rec.steps, rec.epochs, 'wall'));
  assert.deepEqual((await waitPlot(page, 'system-plot', (p) => /^Wall time/.test(p.xTitle), 'throughput by wall time')).data[0].x, epochX(rec.steps, rec.epochs, 'wall'));

  // The choices survive a reload (workspace UI state, not browser storage).
  for (const t0 = Date.now(); !/"training.epochX":"wall"/.test(JSON.stringify(await call('ui.state.get', {}))); await page.waitForTimeout(100)) {
    if (Date.now() - t0 > 10_000) throw new Error('the axis choices were not saved');
  }
  assert.deepEqual(problems, []);
  await page.close();
  ({ page, problems } = await openPage());
  await gotoView(page, 'Training');
  await page.getByTestId('run-picker').selectOption(id);
  loss = await waitPlot(page, 'loss-plot', (p) => p.data[0].x.length === rec.steps.length && /^Wall time/.test(p.xTitle), 'the restored axes');
  assert.deepEqual([loss.xType, loss.yType], ['log', 'linear']);
  assert.equal(await radio(page, 'epoch-y-scale', 'linear').isChecked(), true);
  assert.equal((await plot(page, 'epoch-plot'))!.xTitle, 'Wall time (s, training)');
  // Back to the defaults for the other tests.
  await radio(page, 'x-mode', 'step').check();
  await radio(page, 'epoch-x-mode', 'epoch').check();
  await radio(page, 'x-scale', 'linear').check();
  await radio(page, 'loss-y-scale', 'log').check();
  await radio(page, 'epoch-y-scale', 'log').check();
  await waitPlot(page, 'loss-plot', (p) => p.xType === 'linear' && p.yType === 'log' && p.xTitle === 'Optimizer step', 'the defaults again');
  assert.deepEqual(problems, []);
  await page.close();
});

test('runs view: overlay axes, the selected runs\' curves as one long-format CSV, hyperparameter parcoords', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage();
  await gotoView(page, 'Runs');
  for (const c of CONFIGS) await page.getByRole('checkbox', { name: `Overlay run ${c.name}` }).check();
  const recs = await Promise.all(runIds.map(records));
  let ov = await waitPlot(page, 'runs-overlay', (p) => p.data.length === 2 && p.data.every((d) => d.x.length === 2), 'both runs');
  assert.deepEqual([ov.xType, ov.yType, ov.xTitle], ['linear', 'log', 'Epoch']);
  await page.getByTestId('runs-y-scale').selectOption('linear');
  await page.getByTestId('runs-x-mode').selectOption('step');
  ov = await waitPlot(page, 'runs-overlay', (p) => p.yType === 'linear' && p.xTitle === 'Optimizer step', 'linear y by step');
  assert.deepEqual(ov.data.map((d) => d.x), recs.map((r) => epochX(r.steps, r.epochs, 'step')));
  await page.getByTestId('runs-x-mode').selectOption('epoch');
  await page.getByTestId('runs-y-scale').selectOption('log');

  // CSV: exactly the long-format table of both runs' stored records.
  await page.getByTestId('curves-export').click();
  const status = (await page.getByTestId('curves-export-status').filter({ hasText: /^Saved exports\// }).textContent({ timeout: 20_000 }))!;
  const name = /^Saved exports\/(\S+\.csv) \((\d+) rows\)$/.exec(status)!;
  assert.ok(name, status);
  const csv = readFileSync(join(suite.host.workspace, 'exports', name[1]!), 'utf8');
  const expected = curveRows(runIds.map((id, i) => ({ id, name: CONFIGS[i]!.name, curves: recs[i]! })));
  assert.equal(Number(name[2]), expected.length);
  assert.equal(csv, toCsv(CURVE_COLUMNS, expected));
  const lines = csv.trimEnd().split('\r\n');
  assert.equal(lines[0], 'run,name,record,step,epoch,wall_seconds,metric,value');
  assert.equal(lines.filter((l) => l.includes(',gradNorm,')).length, recs[0]!.steps.length + recs[1]!.steps.length);

  // Parallel coordinates (SVG, no WebGL): one line per run, coloured by its best validation error;
  // the config fields as axes (scattering as categories).
  const pc = page.getByTestId('hparam-parcoords');
  await pc.locator('svg path.pc-line').nth(1).waitFor({ state: 'attached', timeout: 30_000 });
  const listed = (await call<RunSummary[]>('runs.list', {})).filter((r) => runIds.includes(r.id)).sort((a, b) => a.bestValRelL2! - b.bestValRelL2!);
  const pcLines = await pc.locator('svg path.pc-line').evaluateAll((els) => els.map((e) => [(e as any).getAttribute('data-id') as string, Number((e as any).getAttribute('data-value'))] as [string, number]));
  assert.deepEqual(Object.fromEntries(pcLines), Object.fromEntries(listed.map((r) => [r.id, r.bestValRelL2])));
  const axes = await pc.locator('svg g.pc-axis').evaluateAll((els) => els.map((e) => (e as any).getAttribute('data-key') as string));
  for (const k of ['width', 'depth', 'lr', 'seed', 'batch', 'scattering', 'best']) assert.ok(axes.includes(k), `axis ${k} in ${axes.join(', ')}`);
  assert.deepEqual(await pc.locator('g.pc-axis[data-key="scattering"] text.pc-tick').allTextContents(), ['efficient', 'full']);
  // The table sorts by a clicked heading.
  const order = () => page.getByTestId('hparam-table').locator('tbody tr th').allTextContents();
  assert.deepEqual(await order(), listed.map((r) => r.name));
  await page.getByTestId('hparam-sort-width').click();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="hparam-table"] tbody tr th')?.textContent === 'rv narrow');
  await page.getByTestId('hparam-sort-width').click();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="hparam-table"] tbody tr th')?.textContent === 'rv wide');
  assert.deepEqual(problems, []);
  await page.close();
});

test('runs view: notes and tags saved in the run folder, search and tag filter; a bad tag is refused; a checkpoint downloads', { skip, timeout: 240_000 }, async () => {
  const [a, b] = runIds as [string, string];
  const { page, problems } = await openPage();
  await gotoView(page, 'Runs');
  await page.getByTestId(`run-row-${a}`).getByTestId('run-notes-open').click();
  const card = page.getByTestId('run-notes');
  await card.getByTestId('run-notes-text').fill('narrow baseline\nlr from the sweep');
  await card.getByTestId('run-notes-tags').fill('bad tag!');
  await card.getByText("Tag 'tag!'").waitFor();
  assert.equal(await card.getByTestId('run-notes-save').isDisabled(), true);
  await card.getByTestId('run-notes-tags').fill('baseline, sweep-1');
  await card.getByTestId('run-notes-save').click();
  await card.getByTestId('run-notes-status').filter({ hasText: /^Saved/ }).waitFor();
  const run = (await call<RunSummary[]>('runs.list', {})).find((r) => r.id === a)!;
  assert.deepEqual([run.notes, run.tags], ['narrow baseline\nlr from the sweep', ['baseline', 'sweep-1']]);
  assert.deepEqual(JSON.parse(readFileSync(join(suite.host.workspace, 'runs', a, 'meta.json'), 'utf8')).tags, ['baseline', 'sweep-1']);
  assert.equal(await page.getByTestId(`run-row-${a}`).getByTestId('run-tags').textContent(), 'baselinesweep-1 ✎');

  // Search in notes and by tag; the tag filter; both persisted with the UI state.
  const shown = async () => (await page.locator('[data-testid^="run-row-"]').evaluateAll((els: any[]) => els.map((e) => e.dataset.testid.slice(8)))).sort();
  await page.getByTestId('runs-search').fill('SWEEP');
  await page.getByTestId('runs-shown').filter({ hasText: /^1 of 2 runs$/ }).waitFor();
  assert.deepEqual(await shown(), [a]);
  await page.getByTestId('runs-search').fill('tag:sweep');
  await page.getByTestId('runs-shown').filter({ hasText: /^0 of 2 runs$/ }).waitFor();
  await page.getByTestId('runs-search').fill('');
  await page.getByTestId('runs-shown').filter({ hasText: /^2 of 2 runs$/ }).waitFor();
  assert.deepEqual(await shown(), [a, b].sort());
  await page.getByTestId('runs-tag-filter').selectOption('baseline');
  await page.getByTestId('runs-shown').filter({ hasText: /^1 of 2 runs$/ }).waitFor();
  await page.getByTestId('runs-tag-filter').selectOption('');
  await page.getByTestId('runs-shown').filter({ hasText: /^2 of 2 runs$/ }).waitFor();

  // Checkpoints: best and last with their epoch; a download hands over the weights' exact bytes.
  const ck = page.getByTestId('run-checkpoints');
  await ck.getByTestId('checkpoint-last').waitFor();
  const list = await call<{ checkpoint: string; epoch: number; bytes: number }[]>('runs.checkpoints', { id: a });
  assert.deepEqual(list.map((c) => c.checkpoint), ['best', 'last']);
  assert.equal((await ck.getByTestId('checkpoint-last').locator('td').first().textContent()), String(list[1]!.epoch));
  const download = page.waitForEvent('download');
  await ck.getByTestId('checkpoint-download-last').click();
  const dl = await download;
  const expectedName = `${a}-last-epoch${list[1]!.epoch}.safetensors`;
  assert.equal(dl.suggestedFilename(), expectedName);
  const weights = readFileSync(join(suite.host.workspace, 'runs', a, 'checkpoints', 'last', 'weights.safetensors'));
  assert.deepEqual(readFileSync((await dl.path())!), weights);
  assert.equal(weights.length, list[1]!.bytes);
  assert.ok(existsSync(join(suite.host.workspace, 'exports', expectedName)));
  await ck.getByTestId('checkpoint-status').filter({ hasText: `Saved exports/${expectedName}` }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('runs view: "Run on a cluster…" writes the export folder under exports/ and shows it with the torchrun command', { skip, timeout: 240_000 }, async () => {
  const a = runIds[0]!;
  const { page, problems } = await openPage();
  await gotoView(page, 'Runs');
  await page.getByTestId(`run-row-${a}`).getByTestId('run-notes-open').click();
  const card = page.getByTestId('run-cluster-export');
  await card.getByLabel('GPUs per node').fill('2');
  await card.getByTestId('run-cluster-export-start').click();
  const done = card.getByTestId('run-cluster-export-done');
  await done.waitFor({ timeout: 60_000 });
  const dir = join(suite.host.workspace, 'exports', `${a}-cluster`);
  assert.equal(await done.getByTestId('run-cluster-export-path').textContent(), dir);
  assert.equal(await done.getByTestId('run-cluster-export-command').textContent(), `torchrun --standalone --nproc_per_node=2 -m scaleout.train --run-dir runs/${a}-cluster --data data --config config.json`);
  for (const f of ['config.json', 'run.sh', 'slurm.sbatch', 'README.md', 'scaleout/train.py', 'data/train_x.npy']) assert.ok(existsSync(join(dir, f)), `${f} written`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('fields view: "Export predictions (.npy / .mat)" writes the split\'s predictions, reference and indices into exports/', { skip, timeout: 240_000 }, async () => {
  const a = runIds[1]!;
  const { page, problems } = await openPage();
  await gotoView(page, 'Fields');
  await page.getByTestId('run-picker').selectOption(a);
  const card = page.getByTestId('export-predictions');
  await card.getByTestId('export-predictions-split').selectOption('val');
  await card.getByTestId('export-predictions-format').selectOption('mat');
  await card.getByTestId('export-predictions-start').click();
  await card.getByTestId('export-predictions-done').waitFor({ timeout: 60_000 });
  const name = `${a}-best-val-8x8.mat`;
  assert.deepEqual(await card.getByTestId('export-predictions-file').allTextContents(), [`exports/${name} Download`]);
  const bytes = readFileSync(join(suite.host.workspace, 'exports', name));
  assert.equal(bytes.subarray(512, 520).toString('latin1'), '\x89HDF\r\n\x1a\n', 'MAT v7.3 is HDF5 after the 512-byte header');
  await card.getByTestId('export-predictions-format').selectOption('npy');
  await card.getByTestId('export-predictions-start').click();
  await card.getByTestId('export-predictions-done').waitFor({ timeout: 60_000 });
  await card.getByTestId('export-predictions-file').nth(2).waitFor();
  const files = (await card.getByTestId('export-predictions-file').allTextContents()).map((t) => t.replace(/ Download$/, ''));
  assert.deepEqual(files, ['', '-reference', '-indices'].map((s) => `exports/${a}-best-val-8x8${s}.npy`));
  for (const f of files) assert.ok(existsSync(join(suite.host.workspace, f)), f);
  assert.deepEqual(problems, []);
  await page.close();
});
