// End to end: the built renderer in Debian's Chromium, against browser mode with the real engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, SHOTS as ARTIFACTS } from '../helpers/browser-suite';

const suite = browserSuite();
const skip = suite.skip;

test('opens the workbench on an empty workspace and shows the engine backend', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(suite.host.host.url);
  await page.getByRole('heading', { name: 'Workspace' }).waitFor();
  assert.equal(await page.getByTestId('workspace-path').textContent(), suite.host.workspace);
  await page.getByTestId('no-datasets').waitFor();
  await page.getByTestId('no-runs').waitFor();
  // The backend line comes from engine.info, answered by the forked engine process.
  const backend = await page.getByTestId('engine-backend').textContent({ timeout: 60_000 });
  assert.match(backend ?? '', /Backend: (wasm|cpu|tensorflow)/);
  await page.screenshot({ path: `${ARTIFACTS}/workspace.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('runs a computation in the engine through the API and shows the answer', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await page.goto(suite.host.host.url);
  await page.getByTestId('selftest').click();
  // generous: other test files train models on the same 2 cores meanwhile (a hang still fails)
  const result = await page.getByTestId('selftest-result').textContent({ timeout: 150_000 });
  assert.match(result ?? '', /(wasm|cpu|tensorflow), λ = \d+\.\d{4}/);
  await page.close();
});

test('the in-app file browser walks into a folder and opens it as the workspace', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await page.goto(suite.host.host.url);
  await page.getByRole('button', { name: 'Open another workspace…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a workspace folder' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: /runs/ }).click();
  await page.getByTestId('browser-path').filter({ hasText: /^\/runs$/ }).waitFor({ timeout: 10_000 });
  await dialog.getByRole('button', { name: 'Choose this folder' }).click();
  // Choosing workspace/runs opens it as a workspace: the path shown changes to it.
  await page.waitForFunction(
    (p) => (globalThis as any).document.querySelector('[data-testid="workspace-path"]')?.textContent === p,
    `${suite.host.workspace}/runs`,
  );
  await page.close();
});

test('a page without the token gets nothing', { skip, timeout: 240_000 }, async () => {
  const page = await suite.browser.context.newPage();
  await suite.browser.context.clearCookies();
  const resp = await page.goto(`http://127.0.0.1:${suite.host.host.port}/`);
  assert.equal(resp?.status(), 401);
  await page.close();
});
