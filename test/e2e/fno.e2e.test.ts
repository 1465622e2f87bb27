// End to end for the FNO baseline in the app (Chromium against browser mode with the real engine):
// the Model view offers the kind, shows FNO's own fields and the engine's estimate for them, and
// the Training view trains an FNO on tiny Darcy through the same run path as LiNO.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite } from '../helpers/browser-suite';
import { openPage as openSessionPage, gotoView } from '../helpers/page';

const suite = browserSuite();
const skip = suite.skip;

test('Model view: pick FNO, its fields and estimate; the Training view trains it on tiny Darcy', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Model');
  const params = page.getByTestId('est-params');
  await params.waitFor({ timeout: 30_000 });
  const linoParams = await params.textContent();
  await page.getByTestId('model-kind').selectOption('fno');
  // FNO's fields replace LiNO's (no components, no block diagram); Darcy-shaped draft: modes 12, width 32
  assert.equal(await page.getByTestId('toggle-scattering').count(), 0);
  assert.equal(await page.getByTestId('field-modes').inputValue(), '12');
  assert.equal(await page.getByTestId('field-width').inputValue(), '32');
  await page.getByTestId('field-width').fill('8');
  await page.getByTestId('field-modes').fill('4');
  await page.waitForFunction((before) => {
    const t = (globalThis as any).document.querySelector('[data-testid="est-params"]')?.textContent;
    return t && t !== before;
  }, linoParams, { timeout: 30_000 });
  assert.match((await page.getByTestId('estimate-note').textContent()) ?? '', /memory counted per layer/);
  await gotoView(page, 'Training');
  assert.match((await page.locator('.card', { hasText: 'New run' }).textContent()) ?? '', /FNO, width 8, modes 4, 4 Fourier layers/);
  await page.getByTestId('train-epochs').fill('2');
  await page.getByTestId('train-batch').fill('2');
  await page.getByTestId('train-data').selectOption('generate:darcy:tiny');
  await page.getByTestId('train-name').fill('e2e fno');
  await page.getByTestId('train-start').click();
  await page.waitForFunction(() => /^e2e fno/.test((globalThis as any).document.querySelector('[data-testid="run-picker"] option:checked')?.textContent ?? ''), undefined, { timeout: 30_000 });
  const id = await page.getByTestId('run-picker').inputValue();
  await page.getByTestId('run-state').filter({ hasText: /^done$/ }).waitFor({ timeout: 120_000 });
  const run = (await suite.host.service.call('runs.get', { id })) as { config: { model: { kind: string; width: number; modes: number } } };
  assert.deepEqual([run.config.model.kind, run.config.model.width, run.config.model.modes], ['fno', 8, 4]);
  assert.deepEqual(problems, []);
  await page.close();
});
