// The Datasets view opens a real FNO-style .mat file through the in-app file browser, lists its
// variables before loading, imports it with the default mapping and lists the new dataset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/host';
import { browserSuite } from '../helpers/browser-suite';
import { assertAccessible } from '../helpers/axe';

const suite = browserSuite((host) => {
  copyFileSync(`${ROOT}test/fixtures/data/darcy_v5.mat`, join(host.home, 'darcy_421.mat'));
  copyFileSync(`${ROOT}test/fixtures/data/pdebench/1d_time.h5`, join(host.home, 'pdebench_1d.h5'));
  copyFileSync(`${ROOT}test/fixtures/data/pdebench/2d_cfd.h5`, join(host.home, 'pdebench_cfd.h5'));
});
const skip = suite.skip;

test('open a .mat file, see its variables, import it as a dataset', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await page.goto(suite.host.host.url);
  await page.getByRole('button', { name: 'Datasets' }).click();
  const card = page.getByTestId('open-file');
  await card.getByRole('button', { name: 'Choose a file…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a data file' });
  await dialog.getByRole('combobox').selectOption('home');
  await dialog.getByRole('button', { name: /darcy_421\.mat/ }).click();
  const table = card.getByTestId('file-variables');
  await table.waitFor({ timeout: 90_000 }); // the first inspect of a fresh engine, on a loaded machine
  const text = (await table.textContent()) ?? '';
  assert.match(text, /coeff\[5, 9, 9\]float64/);
  assert.match(text, /sol\[5, 9, 9\]float32/);
  // Darcy's defaults: coeff is the input, sol the target.
  assert.equal(await card.getByRole('checkbox', { name: 'use coeff as an input' }).isChecked(), true);
  assert.equal(await card.getByRole('checkbox', { name: 'use sol as an input' }).isChecked(), false);
  await assertAccessible(page, 'datasets view with a file listing');
  await card.getByTestId('import-file').click();
  await card.getByTestId('import-done').waitFor({ timeout: 60_000 });
  await page.getByTestId('datasets-list').waitFor({ timeout: 10_000 });
  await page.close();
});

test('a PDEBench time series: the dialog offers the time split, and an autoregressive import is done', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await page.goto(suite.host.host.url);
  await page.getByRole('button', { name: 'Datasets' }).click();
  const card = page.getByTestId('open-file');
  await card.getByRole('button', { name: 'Choose a file…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a data file' });
  await dialog.getByRole('combobox').selectOption('home');
  await dialog.getByRole('button', { name: /pdebench_1d\.h5/ }).click();
  await card.getByTestId('file-variables').waitFor();
  assert.match((await card.getByTestId('layout-hints').textContent()) ?? '', /'tensor' \[6, 24, 16\] looks like a time series/);
  await card.getByLabel('Benchmark').selectOption('custom');
  await card.getByLabel('Target').selectOption('tensor');
  await card.getByLabel('time split').selectOption('autoregressive');
  await card.getByLabel('T_in').fill('5');
  await card.getByLabel('T_out').fill('5');
  await assertAccessible(page, 'import dialog with a time split');
  await card.getByTestId('import-file').click();
  await card.getByTestId('import-done').waitFor({ timeout: 60_000 });
  await page.close();
});

test('a PDEBench CFD file: every variable at t0 -> every variable at t1 as channels', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await page.goto(suite.host.host.url);
  await page.getByRole('button', { name: 'Datasets' }).click();
  const card = page.getByTestId('open-file');
  await card.getByRole('button', { name: 'Choose a file…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a data file' });
  await dialog.getByRole('combobox').selectOption('home');
  await dialog.getByRole('button', { name: /pdebench_cfd\.h5/ }).click();
  await card.getByTestId('file-variables').waitFor();
  await card.getByLabel('Benchmark').selectOption('custom');
  for (const v of ['Vx', 'Vy', 'density', 'pressure']) await card.getByRole('checkbox', { name: `use ${v} as an input` }).check();
  await card.getByLabel('Target').selectOption('density');
  await card.getByLabel('time split').selectOption('operator');
  await card.getByLabel('t1').fill('5');
  await card.getByRole('checkbox', { name: /every input is a target too/ }).check();
  await card.getByTestId('import-file').click();
  await card.getByTestId('import-done').waitFor({ timeout: 60_000 });
  const stored = readdirSync(join(suite.host.workspace, 'datasets'))
    .map((d) => join(suite.host.workspace, 'datasets', d, 'manifest.json'))
    .filter((f) => existsSync(f))
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { yChannels: string[]; source: { path?: string } })
    .find((m) => m.source.path?.endsWith('pdebench_cfd.h5'));
  assert.deepEqual(stored?.yChannels, ['density@t5', 'Vx@t5', 'Vy@t5', 'pressure@t5']);
  await page.close();
});
