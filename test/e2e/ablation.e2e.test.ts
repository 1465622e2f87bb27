// End to end for the Ablation view in Debian's Chromium against browser mode with the real engine:
// from a tiny base run (synthetic 8×8 data, one epoch, M = 4, L = 1) launch the full model and the
// w/o reflection / refraction / scattering variants with 2 seeds each (8 runs: one grid sweep over
// the components, the ablation being a preset of a sweep) and check the launch at once: the sweep is
// listed and its trials are the variants' runs, before any has trained; the launched view passes an
// axe audit (light and dark) and fits 1366 px. What the view computes once they have trained (the
// table against runs.group, the bars, LaTeX, the error-field grid on one cividis axis, parameter
// counts, Gates' colours, the names after the base, the ablation found again from a member run, the
// branch spectra across the variants against the kept evaluations and their CSV) is
// computed from a real finished ablation without a browser: test/integration/sweep/ablation-engine.test.ts
// (the table's arithmetic and the figure's layout: test/unit/renderer/ablation.test.ts).
// Screenshot: test-results/screenshots/ablation-launched.png (the view just launched; docs/screenshots/ablation.png shows it trained).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSuite, SHOTS } from '../helpers/browser-suite';
import { trainedId } from '../helpers/trained-run';
import { assertAccessible } from '../helpers/axe';
import { openPage as openSessionPage, gotoView } from '../helpers/page';

// The base run in the engine thread (train.start's path, as the Sweeps e2e): a run's own worker
// start-up took about a minute on a loaded 2-core machine, past the timeout.
process.env.LINO_TRAIN_IN_THREAD = '1';
let baseId = '';
const suite = browserSuite(async (host) => {
  baseId = await trainedId(host.service, { name: 'abl base', data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2, seed: 5 }, 60_000);
});
const skip = suite.skip;

async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const r = await openSessionPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(r.page, 'Ablation');
  return r;
}

type Runs = { id: string; name: string; state: string; group: string | null; seed: number | null }[];
const listRuns = async () => (await suite.host.service.call('runs.list', {})) as Runs;
const VARIANTS = ['full', 'no-reflection', 'no-refraction', 'no-scattering'];

test('ablation: launching the three "without" variants and the full model with 2 seeds from a tiny run is one grid sweep whose trials are the variants\' seed groups, listed before any trains; the launched view passes axe (light and dark) and fits 1366 px', { skip, timeout: 120_000 }, async () => {
  const { page, problems } = await openPage();
  await page.getByTestId('run-picker').selectOption(baseId);
  await page.getByTestId('ablation-seeds').fill('2');
  const launch = page.getByTestId('ablation-launch');
  await launch.filter({ hasText: 'Launch 4 variants (8 runs)' }).waitFor({ timeout: 30_000 });
  await launch.click();
  await launch.filter({ hasText: 'All variants launched' }).waitFor({ timeout: 30_000 });

  // Eight runs in four deterministic seed groups, seeds 5 and 6, one component off in each.
  const mine = (await listRuns()).filter((r) => r.group?.startsWith(`${baseId}/`));
  assert.deepEqual([...new Set(mine.map((r) => r.group))].sort(), VARIANTS.map((v) => `${baseId}/${v}`).sort());
  assert.deepEqual(mine.map((r) => r.seed).sort(), [5, 5, 5, 5, 6, 6, 6, 6]);
  const cfg = (await suite.host.service.call('runs.get', { id: mine.find((r) => r.group === `${baseId}/no-refraction`)!.id })) as { config: { model: { components: string[]; width: number } } };
  assert.deepEqual(cfg.config.model.components, ['reflection', 'scattering']);
  assert.equal(cfg.config.model.width, 4);
  // The launch is one sweep (Sweeps view, sweeps.list): a grid over the components whose trials are these runs.
  const sweeps = (await suite.host.service.call('sweeps.list', {})) as { id: string; name: string; method: string; trials: number }[];
  const sweep = sweeps.find((x) => x.name === `ablation ${baseId}`);
  assert.ok(sweep && sweep.method === 'grid' && sweep.trials === 8, JSON.stringify(sweeps));
  const detail = (await suite.host.service.call('sweeps.get', { id: sweep.id })) as { state: { trials: { runId: string }[] } };
  assert.deepEqual(detail.state.trials.map((t) => t.runId).sort(), mine.map((r) => r.id).sort());
  // Progress shows each run's state (queued one after another by the engine).
  await page.getByTestId('ablation-progress-no-scattering').getByText(/seed 6: (queued|running|done)/).waitFor();
  // The results table lists the four variants at once, their seeds still training.
  await page.getByTestId('ablation-table').getByTestId('ablation-row-no-scattering').waitFor({ timeout: 30_000 });

  await assertAccessible(page, 'Ablation view');
  const overflow = await page.evaluate(() => {
    const main = (globalThis as any).document.querySelector('main.content');
    return main.scrollWidth - main.clientWidth;
  });
  assert.ok(overflow <= 1, `fits 1366 px wide (overflow ${overflow})`);
  // The whole view in one picture: a tall window for the screenshot only.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: 1900 });
  await page.getByRole('heading', { name: 'Ablation', level: 1 }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/ablation-launched.png` });
  if (size) await page.setViewportSize(size);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await assertAccessible(page, 'Ablation view (dark theme)');
  await page.getByRole('button', { name: 'Light theme' }).click();
  assert.deepEqual(problems, []);
  await page.close();
  // the trainings are not this file's subject: stopped, so they do not run on while the file ends
  await suite.host.service.call('sweeps.control', { id: sweep.id, action: 'stop' });
});
