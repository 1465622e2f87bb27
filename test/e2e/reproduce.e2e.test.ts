// End to end for the Reproduce view (Chromium against browser mode with the real engine):
// the presets list with sizes and estimated times, one tiny preset run as a job, its table with the
// measured rows and, apart from them, the paper's rows labelled 'reported (paper)', exported as CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite } from '../helpers/browser-suite';
import { openPage as openSessionPage, gotoView } from '../helpers/page';

const suite = browserSuite();
const skip = suite.skip;

test('Reproduce view: run darcy-ablation at tiny size, see its table with the reported (paper) rows and its bar figure, export it', { skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Reproduce');
  const list = page.getByTestId('reproduce-presets');
  await list.waitFor({ timeout: 30_000 });
  assert.equal(await list.getByRole('radio').count(), 6);
  assert.match((await page.getByTestId('reproduce-estimate-airfoil').textContent()) ?? '', /tiny: about \d+ s on 2 cores/);
  // each radio beside its label's first line, not on a line of its own above it (the closing walk's screenshot)
  for (let i = 0; i < 6; i++) {
    const row = page.getByTestId('reproduce-preset-row').nth(i);
    const [radio, label] = [(await row.getByRole('radio').boundingBox())!, (await row.locator('label').boundingBox())!];
    assert.ok(label.x > radio.x + radio.width && label.y < radio.y + radio.height, `preset ${i + 1}: radio ${JSON.stringify(radio)}, label ${JSON.stringify(label)}`);
  }
  await list.getByLabel(/Darcy ablation/).check();
  assert.equal(await page.getByTestId('reproduce-size').inputValue(), 'tiny');
  await page.getByTestId('reproduce-start').click();
  const result = page.getByTestId('reproduce-result');
  await result.waitFor({ timeout: 200_000 });
  const table = result.getByTestId('reproduce-table').first();
  const measured = table.getByTestId('reproduce-measured-row');
  const reported = table.getByTestId('reproduce-reported-row');
  assert.equal(await measured.count(), 4);
  assert.equal(await reported.count(), 4);
  for (let i = 0; i < 4; i++) {
    assert.equal(await reported.nth(i).locator('td').first().textContent(), 'reported (paper)');
    assert.equal(await measured.nth(i).locator('td').first().textContent(), 'measured (this machine)');
  }
  // the reported rows sit in their own body, after the measured one
  assert.equal(await table.locator('tbody').nth(1).getAttribute('data-testid'), 'reproduce-reported');
  await table.getByRole('button', { name: /as CSV/ }).click();
  assert.match((await table.getByTestId('table-export-status').textContent()) ?? '', /^Saved exports\/.+\.csv$/);
  assert.match((await reported.first().textContent()) ?? '', /LiNO full model.*0\.00591/);
  await result.getByTestId('reproduce-figure-ablation-bars').waitFor({ timeout: 30_000 });
  const runs = (await suite.host.service.call('runs.list', {})) as { name: string; state: string }[];
  assert.equal(runs.filter((r) => r.name.startsWith('darcy-ablation-tiny/') && r.state === 'done').length, 8, '4 variants x 2 seeds');
  assert.deepEqual(problems, []);
  await page.close();
});
