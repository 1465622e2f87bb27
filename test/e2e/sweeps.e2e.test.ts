// End to end for the Sweeps view (Chromium against browser mode with the real engine): a 2x2 grid
// with 2 seeds filled in the form and started from the view, counted against its 8 planned trials in
// the list and the detail alike from the first trial on, the engine killed with SIGKILL during it, Resume
// finishing it with 8 trials once each; the tables (trials, mean ± std per configuration,
// importance), the parallel coordinates and best-so-far figures drawn as SVG, CSV and SVG export,
// Compare into the Runs view; then a random sweep with ASHA from the JSON tab, with pruned trials,
// its importance read at one rung; then "Train the best fully" with the epochs, new seeds and name asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite } from '../helpers/browser-suite';
import { openPage, gotoView } from '../helpers/page';
import { fillGridSweepForm } from '../helpers/sweep-form';
import type { SweepDetail } from '../../main/api/contract';

process.env.LINO_BACKEND = 'cpu';
// trials in the engine thread: the same train.start path without a worker's start-up per trial
process.env.LINO_TRAIN_IN_THREAD = '1';
const suite = browserSuite();
const skip = suite.skip;

async function sweepDetail(id: string): Promise<SweepDetail> {
  return (await suite.host.service.call('sweeps.get', { id } as never)) as SweepDetail;
}

test('Sweeps view: a 2x2 grid with 2 seeds from the form, counted of 8, engine killed with SIGKILL, resumed; tables, figures, export, compare; a random sweep with ASHA; Train the best fully asks', { skip, timeout: 500_000 }, async () => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Sweeps');
  // the form: a tiny grid on the try-out data (width 4, 8 x lr 1e-3, 1e-2), 2 seeds, 2 epochs
  await fillGridSweepForm(page, { name: 'form-grid', epochs: '2', seeds: '2' });
  await page.getByTestId('sweep-start').click();
  const status = page.getByTestId('sweep-status');
  await status.waitFor({ timeout: 60_000 });
  const id = (await page.getByTestId('sweep-detail').locator('h2 span').textContent())!.replace(/[()]/g, '');
  // honest from the start: counted against the grid's 8 trials, in the list as in the detail
  assert.match((await status.textContent()) ?? '', /\d of 8 trials ended/);
  const started = await sweepDetail(id);
  assert.equal(started.summary.planned, 8);
  assert.deepEqual((started.config.axes as unknown[]), [{ path: 'model.width', values: [4, 8] }, { path: 'optimizer.lr', values: [0.001, 0.01] }]);
  // kill the engine once the third trial runs
  for (let t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const d = await sweepDetail(id);
    if (d.state.trials.length >= 3 && d.state.trials[2]!.state === 'running') break;
    if (Date.now() - t0 > 200_000) throw new Error('the grid did not reach its third trial');
  }
  const info = (await suite.host.service.call('engine.info', {})) as { pid: number };
  process.kill(info.pid, 'SIGKILL');
  await page.getByRole('button', { name: 'Resume' }).waitFor({ state: 'visible' });
  for (let t0 = Date.now(); !(await page.getByRole('button', { name: 'Resume' }).isEnabled()); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 60_000) throw new Error('Resume did not become available after the engine died');
  }
  await page.getByRole('button', { name: 'Resume' }).click();
  let d = await sweepDetail(id);
  for (const t0 = Date.now(); d.summary.status !== 'done'; await new Promise((r) => setTimeout(r, 500)), d = await sweepDetail(id)) {
    if (Date.now() - t0 > 240_000) throw new Error(`the grid did not finish after Resume: ${JSON.stringify(d.summary)}`);
  }
  await page.waitForFunction(() => /^done/.test((globalThis as any).document.querySelector('[data-testid="sweep-status"]')?.textContent ?? ''), undefined, { timeout: 30_000 });
  assert.equal(d.state.trials.length, 8);
  assert.match((await status.textContent()) ?? '', /^done.*: 8 of 8 trials ended/);
  const line = page.getByTestId('sweep-list').locator('label').filter({ hasText: id });
  await line.filter({ hasText: 'done, 8 of 8 trials ended' }).waitFor({ timeout: 10_000 });
  // a styled table, and a best-so-far curve with its trials on x
  assert.match((await page.getByTestId('sweep-trials').getAttribute('class')) ?? '', /runs-table/);
  assert.equal(await page.getByTestId('sweep-best-so-far').locator('svg text.x-tick').count(), 8);
  assert.equal(new Set(d.state.trials.map((t) => t.runId)).size, 8);
  assert.ok(d.state.trials.every((t) => t.state === 'done'));
  assert.equal(await page.getByTestId('sweep-trials').locator('tbody tr').count(), 8);
  assert.equal(await page.getByTestId('sweep-configs').locator('tbody tr').count(), 4);
  assert.match((await page.getByTestId('sweep-configs').locator('tbody tr').first().textContent()) ?? '', /±.*2 of 2/);
  assert.equal(await page.getByTestId('sweep-importance').locator('tbody tr').count(), 2);
  assert.equal(await page.getByTestId('sweep-parallel').locator('svg path.pc-line').count(), 8);
  assert.equal(await page.getByTestId('sweep-best-so-far').locator('svg circle').count(), 8);
  await page.getByRole('button', { name: /trials as CSV/ }).click();
  assert.match((await page.getByTestId('table-export-status').first().textContent()) ?? '', /^Saved exports\/.+\.csv$/);
  // the shared parallel-coordinates component, with its export bar
  await page.getByRole('button', { name: /parallel coordinates as SVG/ }).click();
  await page.getByTestId('sweep-parallel').getByTestId('export-status').filter({ hasText: /Saved exports\/.+\.svg$/ }).waitFor({ timeout: 30_000 });
  // a random sweep with ASHA, from the JSON tab
  await page.getByRole('tab', { name: 'sweep.json' }).click();
  await page.getByTestId('sweep-json').fill(JSON.stringify({
    name: 'ui-asha', method: 'random', samplerSeed: 2, budget: { maxTrials: 4 }, earlyStopping: { minEpochs: 1, eta: 2 },
    base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 3, batchSize: 4 },
    axes: [{ path: 'optimizer.lr', logRange: [1e-5, 3e-2] }, { path: 'model.width', values: [4, 6] }],
  }));
  await page.getByTestId('sweep-start').click();
  await page.waitForFunction(() => /ui-asha/.test((globalThis as any).document.querySelector('[data-testid="sweep-detail"] h2')?.textContent ?? '') && /^done/.test((globalThis as any).document.querySelector('[data-testid="sweep-status"]')?.textContent ?? ''), undefined, { timeout: 300_000 });
  const text = (await status.textContent()) ?? '';
  assert.match(text, /4 of at most 4 trials ended \([1-9] pruned/);
  assert.match((await page.getByTestId('sweep-importance').locator('caption').textContent()) ?? '', /at epoch \d+, the deepest rung all of them reached|ran their full/);
  // "Train the best fully" asks first: the sweep's epochs, new seeds (after the trials' 42), a name
  await page.getByRole('button', { name: /Train the best configuration fully/ }).click();
  const ask = page.getByTestId('train-best-form');
  assert.equal(await ask.getByLabel('Epochs').inputValue(), '3');
  assert.equal(await ask.getByLabel('First seed').inputValue(), '43');
  await ask.getByLabel('Epochs').fill('5');
  await ask.getByLabel('Run name').fill('ui-asha best, full');
  await ask.getByRole('button', { name: 'Start training' }).click();
  const msg = page.getByText(/Training the best configuration fully: run /);
  await msg.waitFor({ timeout: 30_000 });
  const runId = /run (\S+) \(/.exec((await msg.textContent())!)![1]!;
  const run = (await suite.host.service.call('runs.get', { id: runId } as never)) as { config: { epochs: number; seed: number; name: string } };
  assert.deepEqual([run.config.epochs, run.config.seed, run.config.name], [5, 43, 'ui-asha best, full']);
  await suite.host.service.call('train.stop', { id: runId } as never);
  await page.getByRole('button', { name: 'Compare in Runs' }).click();
  await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();

  assert.deepEqual(problems.filter((p) => !/engine/.test(p)), []);
  await page.close();
});

test('Sweeps view: a bad sweep.json is refused with the field named', { skip, timeout: 240_000 }, async () => {
  const { page } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Sweeps');
  await page.getByRole('tab', { name: 'sweep.json' }).click();
  await page.getByTestId('sweep-json').fill('{"base": {"data": {"kind": "synthetic", "grid": [8], "train": 2, "val": 1}}, "axes": [{"path": "model.nope", "values": [1]}]}');
  await page.getByTestId('sweep-start').click();
  assert.match((await page.getByTestId('sweep-error').textContent()) ?? '', /axes\[0\] \('model\.nope'\)/);
  await page.getByTestId('sweep-json').fill('{not json');
  await page.getByTestId('sweep-start').click();
  assert.match((await page.getByTestId('sweep-error').textContent()) ?? '', /not JSON/);
  await page.close();
});
