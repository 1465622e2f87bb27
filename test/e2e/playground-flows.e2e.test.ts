// End to end for the Playground view on Navier-Stokes and airfoil runs, in Debian's
// Chromium against browser mode with the real engine: a tiny NS LiNO (3 history frames, 2 rolled
// out) and a tiny airfoil LiNO trained in setup. NS: w0 with a vortex draws, the solver's truth and
// the rollout's prediction draw, the step slider changes the frame shown and its relL2, moving the
// vortex redraws w0 and the truth. Airfoil: moving a design node redraws the mesh's prediction and
// truth on the C-grid. Screenshots: test-results/screenshots/playground-ns.png, playground-airfoil.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sharedId } from '../helpers/trained-run';
import { standardRun } from '../helpers/standard-runs';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { openPage, gotoView } from '../helpers/page';
import { assertAccessible } from '../helpers/axe';

const runs = { ns: '', airfoil: '' };

const suite = browserSuite(async (host) => {
  // the standard tiny runs, shared with the Playground's integration test
  runs.ns = await sharedId(host.service, host.workspace, standardRun('navier-stokes', 'lino'));
  runs.airfoil = await sharedId(host.service, host.workspace, standardRun('airfoil', 'lino'));
});
const skip = suite.skip;

/** Every trace's z drawn under a test id (heatmaps and mesh contours), or null before it is drawn. */
function drawn(page: Page, testId: string): Promise<string | null> {
  return page.evaluate((id) => {
    const el = (globalThis as any).document.querySelector(`[data-testid="${id}"] .js-plotly-plot`);
    const zs = (el?.data ?? []).filter((t: any) => t.z).map((t: any) => t.z);
    return zs.length ? JSON.stringify(zs) : null;
  }, testId);
}

async function changes(page: Page, testId: string, before: string | null, what: string): Promise<string> {
  for (const t0 = Date.now(); Date.now() - t0 < 40_000; await page.waitForTimeout(100)) {
    const z = await drawn(page, testId);
    if (z && z !== before) return z;
  }
  throw new Error(`${what} did not redraw`);
}

async function pick(page: Page, id: string) {
  await page.getByTestId('run-picker').locator(`option[value="${id}"]`).waitFor({ state: 'attached', timeout: 20_000 });
  await page.getByTestId('run-picker').selectOption(id);
}

test('playground: a Navier-Stokes w0 with a vortex rolls out; prediction and truth draw at each step; moving the vortex redraws them; an airfoil design node moved redraws prediction and truth on the C-grid', { skip, timeout: 180_000 }, async () => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Playground');
  await pick(page, runs.ns);
  const w0 = await changes(page, 'playground-w0', null, 'w0');
  const pred0 = await changes(page, 'playground-prediction', null, 'the first rollout');
  const truth0 = await changes(page, 'playground-truth', null, 'the first truth');
  await page.getByTestId('playground-error').waitFor();
  await page.getByTestId('playground-history').waitFor();
  const rel = async () => (await page.getByTestId('playground-rell2').textContent()) ?? '';
  for (const t0 = Date.now(); !/relL2 \d/.test(await rel()); await page.waitForTimeout(100)) if (Date.now() - t0 > 20_000) throw new Error(`no relL2 shown: ${await rel()}`);
  await page.waitForFunction(() => /relL2 at step 1: \d/.test((globalThis as any).document.querySelector('[data-testid="playground-step-rell2"]')?.textContent ?? ''));

  // step 2 of the rollout: another frame, its own relL2
  await page.getByTestId('playground-step').fill('2');
  const pred2 = await changes(page, 'playground-prediction', pred0, 'the prediction at step 2');
  const truth2 = await changes(page, 'playground-truth', truth0, 'the truth at step 2');
  await page.waitForFunction(() => /relL2 at step 2: \d/.test((globalThis as any).document.querySelector('[data-testid="playground-step-rell2"]')?.textContent ?? ''));
  await assertAccessible(page, 'Playground view on a Navier-Stokes run');
  await page.screenshot({ path: `${SHOTS}/playground-ns.png` });

  // the vortex moved: w0 redraws, then the truth and the rollout from the new history
  await page.getByTestId('playground-vortex-0-x').fill('0.2');
  await changes(page, 'playground-w0', w0, 'w0 after moving the vortex');
  // the last answer stays drawn until the new one is complete: the step-2 frames change
  const truthMoved = await changes(page, 'playground-truth', truth2, 'the truth after moving the vortex');
  assert.notEqual(truthMoved, truth0);
  await changes(page, 'playground-prediction', pred2, 'the rollout after moving the vortex');
  assert.equal(await page.getByTestId('playground-step').inputValue(), '2', 'the step stays');
  assert.equal(await page.getByTestId('playground-vortex-0-x').inputValue(), '0.2', 'the vortex stays where it was moved');

  assert.deepEqual(problems, [], 'no page errors on the Navier-Stokes run');

  // airfoil: the mesh, the flow and the prediction on it; a node moved redraws them
  await pick(page, runs.airfoil);
  await page.getByTestId('playground-design').waitFor();
  const a0 = await changes(page, 'playground-prediction', null, 'the airfoil prediction');
  const t0 = await changes(page, 'playground-truth', null, 'the airfoil truth');
  await page.getByTestId('playground-mesh').waitFor();
  await page.getByTestId('playground-node-1').fill('0.04');
  await changes(page, 'playground-truth', t0, 'the airfoil truth after moving node U2');
  await changes(page, 'playground-prediction', a0, 'the airfoil prediction after moving node U2');
  await page.getByTestId('playground-error').waitFor();
  await page.screenshot({ path: `${SHOTS}/playground-airfoil.png` });
  assert.deepEqual(problems, []);
});
