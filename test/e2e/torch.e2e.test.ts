// A PyTorch run from the UI (Chromium against browser mode with the real engine and Debian's
// python3-torch): the Training view's backend picker offers PyTorch CPU (found by the engine's
// probe), a tiny Darcy run trains on it with live curves, Stop, Resume, done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSuite } from '../helpers/browser-suite';
import { openPage, gotoView } from '../helpers/page';

const PY = '/usr/bin/python3';
const noTorch = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
process.env.LINO_PYTHON = PY; // the host's engine inherits it
process.env.OMP_NUM_THREADS = '1';
const suite = browserSuite();
const skip = suite.skip || noTorch;

test('Training view: pick PyTorch CPU, curves appear live, Stop, Resume, done', { skip, timeout: 300_000 }, async (tc) => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  // the Workspace view's PyTorch card: what the probe found (LINO_PYTHON set here wins over the setting)
  await gotoView(page, 'Workspace');
  await page.getByTestId('workspace-torch').filter({ hasText: /^PyTorch 1\.13.* at \/usr\/bin\/python3/ }).waitFor({ timeout: 60_000 });
  await gotoView(page, 'Model');
  await page.getByTestId('field-width').fill('8');
  await page.getByTestId('field-depth').fill('1');
  await gotoView(page, 'Training');
  // the probe's answer: the option is enabled and the interpreter is named
  await page.getByTestId('train-backend-torch').filter({ hasText: /PyTorch 1\.13/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId('train-backend').selectOption('torch:cpu');
  await page.getByTestId('train-data').selectOption('generate:darcy:tiny');
  await page.getByTestId('train-epochs').fill('150');
  await page.getByTestId('train-batch').fill('1');
  await page.getByTestId('train-name').fill('e2e torch');
  await page.getByTestId('train-start').click();
  await page.waitForFunction(() => /^e2e torch/.test((globalThis as any).document.querySelector('[data-testid="run-picker"] option:checked')?.textContent ?? ''), undefined, { timeout: 30_000 });
  const id = await page.getByTestId('run-picker').inputValue();
  tc.after(async () => {
    const r = ((await suite.host.service.call('runs.list', {})) as { id: string; state: string }[]).find((x) => x.id === id);
    if (r && ['running', 'paused', 'queued'].includes(r.state)) await suite.host.service.call('train.stop', { id });
  });
  const state = page.getByTestId('run-state');
  await state.filter({ hasText: /^running$/ }).waitFor({ timeout: 90_000 });
  const stepsOver = (n: number) => page.waitForFunction((k) => (parseInt((globalThis as any).document.querySelector('[data-testid="curve-points"]')?.textContent ?? '0', 10) || 0) > k, n, { timeout: 90_000 });
  await stepsOver(2);
  await page.getByTestId('stat-backend').filter({ hasText: /torch-cpu/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId('run-stop').waitFor();
  await page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="run-stop"]').click());
  await state.filter({ hasText: /^stopped$/ }).waitFor({ timeout: 60_000 });
  const atStop = await page.evaluate(() => parseInt((globalThis as any).document.querySelector('[data-testid="curve-points"]')?.textContent ?? '0', 10) || 0);
  await page.getByTestId('run-resume').click();
  await state.filter({ hasText: /^done$/ }).waitFor({ timeout: 60_000 }).catch(async (e: Error) => {
    const r = await suite.host.service.call('runs.get', { id });
    throw new Error(`${e.message}\nshown: ${await state.textContent()}\nrun: ${JSON.stringify(r).slice(0, 2000)}\nevents.log: ${readFileSync(join(suite.host.workspace, 'runs', id, 'events.log'), 'utf8').slice(-3000)}`);
  });
  await stepsOver(atStop);
  const run = (await suite.host.service.call('runs.get', { id })) as { config: { backend?: string; torch?: { device: string } }; status: { state: string; backend?: string } };
  assert.deepEqual([run.config.backend, run.config.torch?.device, run.status.state], ['torch', 'cpu', 'done']);
  assert.match(run.status.backend ?? '', /^torch-cpu/);
  assert.deepEqual(problems, []);
  await page.close();
});
