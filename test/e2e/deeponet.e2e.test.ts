// End to end for the DeepONet baseline in the app (Chromium against browser mode with the real
// engine): tiny Burgers generated in the Datasets view; the Model view offers DeepONet with its
// declared fields (width, layers, basis p at the paper's 128, 8, 128) and the engine's estimate for
// them; the Training view trains it on that dataset through the same run path as LiNO, and the loss
// curve's points arrive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite } from '../helpers/browser-suite';
import { openPage as openSessionPage, gotoView } from '../helpers/page';

const suite = browserSuite();
const skip = suite.skip;

test('Model view: pick DeepONet, its fields and estimate; the Training view trains it on generated tiny Burgers and curves arrive', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Datasets');
  await page.getByTestId('gen-benchmark').selectOption('burgers');
  await page.getByTestId('gen-preset').selectOption('tiny');
  await page.getByTestId('gen-samples').fill('12');
  await page.getByTestId('gen-start').click();
  await page.getByTestId('gen-job-done').filter({ hasText: /burgers/ }).waitFor({ timeout: 90_000 });

  await gotoView(page, 'Model');
  const params = page.getByTestId('est-params');
  await params.waitFor({ timeout: 30_000 });
  await page.getByTestId('model-data').selectOption('burgers');
  await page.getByTestId('model-kind').selectOption('deeponet');
  // DeepONet's declared fields replace LiNO's (no components, no block diagram), at the paper's sizes
  assert.equal(await page.getByTestId('toggle-scattering').count(), 0);
  assert.equal(await page.getByTestId('field-modes').count(), 0);
  assert.deepEqual(
    [await page.getByTestId('field-width').inputValue(), await page.getByTestId('field-depth').inputValue(), await page.getByTestId('field-basis').inputValue()],
    ['128', '8', '128'],
  );
  assert.equal(await page.getByLabel('Basis p').count(), 1, 'the declared label and symbol');
  await page.getByTestId('field-basis').fill('0');
  const err = page.locator('.field', { has: page.getByTestId('field-basis') }).locator('.error-message');
  assert.match((await err.textContent()) ?? '', /Basis must be a whole number from 1 to 1024/);
  const before = await params.textContent().catch(() => null);
  await page.getByTestId('field-width').fill('16');
  await page.getByTestId('field-depth').fill('3');
  await page.getByTestId('field-basis').fill('8');
  await page.getByTestId('field-gridSide').fill('64');
  await page.waitForFunction((b) => {
    const t = (globalThis as any).document.querySelector('[data-testid="est-params"]')?.textContent;
    return t && t !== b;
  }, before, { timeout: 30_000 });
  assert.match((await page.getByTestId('estimate-note').textContent()) ?? '', /memory counted per layer/);

  await gotoView(page, 'Training');
  assert.match((await page.locator('.card', { hasText: 'New run' }).textContent()) ?? '', /DeepONet, width 16, 3 layers each for branch and trunk, basis p = 8/);
  const option = page.locator('[data-testid="train-data"] option', { hasText: /^Burgers/ }).first();
  await page.getByTestId('train-data').selectOption((await option.getAttribute('value'))!);
  await page.getByTestId('train-epochs').fill('3');
  await page.getByTestId('train-batch').fill('2');
  await page.getByTestId('train-name').fill('e2e deeponet');
  await page.getByTestId('train-start').click();
  await page.waitForFunction(() => /^e2e deeponet/.test((globalThis as any).document.querySelector('[data-testid="run-picker"] option:checked')?.textContent ?? ''), undefined, { timeout: 30_000 });
  const id = await page.getByTestId('run-picker').inputValue();
  await page.waitForFunction(() => ((globalThis as any).document.querySelector('[data-testid="loss-plot"] .js-plotly-plot')?.data?.[1]?.x?.length ?? 0) >= 2, undefined, { timeout: 120_000 });
  await page.getByTestId('run-state').filter({ hasText: /^done$/ }).waitFor({ timeout: 120_000 });
  const losses = await page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="loss-plot"] .js-plotly-plot').data[1].y as number[]);
  assert.ok(losses.every((v) => Number.isFinite(v) && v > 0), `finite positive losses: ${losses.join(', ')}`);
  const run = (await suite.host.service.call('runs.get', { id })) as { config: { model: { kind: string; width: number; depth: number; basis: number } } };
  assert.deepEqual([run.config.model.kind, run.config.model.width, run.config.model.depth, run.config.model.basis], ['deeponet', 16, 3, 8]);
  assert.deepEqual(problems, []);
  await page.close();
});
