// The Runs view imports a release-format PyTorch checkpoint chosen in the in-app file browser;
// the new run lists in the runs table like any other, and a hostile .pt is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/host';
import { browserSuite } from '../helpers/browser-suite';
import { assertAccessible } from '../helpers/axe';

const suite = browserSuite((host) => {
  copyFileSync(`${ROOT}test/fixtures/pt/release-2d-eff.pt`, join(host.home, 'best_model.pt'));
  copyFileSync(`${ROOT}test/fixtures/pt/payload-os-system.pt`, join(host.home, 'payload.pt'));
});
const skip = suite.skip;

async function importFile(page: import('playwright-core').Page, name: RegExp) {
  const card = page.getByTestId('import-checkpoint');
  await card.getByRole('button', { name: 'Choose a .pt file…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a PyTorch checkpoint' });
  await dialog.getByRole('combobox').selectOption('home');
  await dialog.getByRole('button', { name }).click();
  await card.getByRole('button', { name: 'Import as a run' }).click();
  return card;
}

test('import a .pt checkpoint from the Runs view; it lists as a run', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await page.goto(suite.host.host.url);
  await page.getByRole('button', { name: 'Runs' }).click();
  const card = await importFile(page, /best_model\.pt/);
  await card.getByRole('status').filter({ hasText: /Imported as run/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('runs-table').getByText('imported best_model.pt').waitFor({ timeout: 10_000 });
  await assertAccessible(page, 'runs view with an imported checkpoint');
  rmSync('/tmp/lino-pt-payload-ran', { force: true });
  await importFile(page, /payload\.pt/);
  const alert = card.getByRole('alert');
  await alert.waitFor({ timeout: 30_000 });
  assert.match((await alert.textContent()) ?? '', /refused global 'os\.system'/);
  assert.equal(existsSync('/tmp/lino-pt-payload-ran'), false);
  await page.close();
});
