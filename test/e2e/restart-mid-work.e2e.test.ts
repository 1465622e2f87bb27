// Issue 23 item 2, a host restart in the middle of a view's work (Debian's Chromium, browser mode,
// the real engine): the host and its engine stop while a training run trains; a new host on the
// same workspace shows the Training view on that run, listed as interrupted, with its curve drawn
// again from the run's files, and Resume continues it from its last checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { RunSummary } from '../../main/api/contract';
import { browserSuite } from '../helpers/browser-suite';
import { RENDERER_DIR } from '../helpers/host';
import { testLauncher } from '../helpers/test-launcher';
import { startBrowserHost, type BrowserHost } from '../../main/hosts/browser/server';
import { WorkbenchService } from '../../main/services/workbench-service';
import { openPage, gotoView } from '../helpers/page';

const suite = browserSuite();
const skip = suite.skip;

/** How many epochs the Training view says it has drawn ("N steps, M epochs recorded"). */
async function epochsShown(page: Page): Promise<number> {
  const text = (await page.getByTestId('curve-points').textContent()) ?? '';
  return Number(/(\d+) epochs recorded/.exec(text)?.[1] ?? -1);
}

async function untilEpochs(page: Page, n: number, ms: number): Promise<number> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 200))) {
    const shown = await epochsShown(page).catch(() => -1);
    if (shown >= n) return shown;
  }
  throw new Error(`the Training view did not show ${n} epochs in ${ms} ms (it shows ${await epochsShown(page).catch(() => -1)})`);
}

/** Points of the epoch plot's first trace as drawn (plotly's data on the graph div). */
const epochPoints = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as any).document.querySelector('[data-testid="epoch-plot"] .js-plotly-plot');
    return el?.data?.[0]?.x?.length ?? 0;
  });

test('a host restart in the middle of a training run: the Training view shows the run, interrupted, with its curve, and Resume continues it', { skip, timeout: 240_000 }, async () => {
  const first = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  const config = { name: 'restarted mid-run', data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, resolution: 12 }, model: { width: 4, depth: 1 }, epochs: 400, batchSize: 2 };
  const { runId } = (await suite.host.service.call('train.start', { config } as never)) as { runId: string };
  await gotoView(first.page, 'Training');
  await first.page.getByTestId('run-picker').selectOption(runId);
  await first.page.getByTestId('run-state').filter({ hasText: /^running$/ }).waitFor({ timeout: 120_000 });
  const before = await untilEpochs(first.page, 1, 120_000);
  await first.page.close();
  assert.deepEqual(first.problems, []);

  // Restart: this host and its engine stop in the middle of the run; a new one starts on the same workspace.
  await suite.host.host.close();
  await suite.host.service.dispose();
  const service = new WorkbenchService({ host: 'browser', launcher: testLauncher(), workspace: suite.host.workspace, homeRoot: suite.host.home });
  let host: BrowserHost | null = null;
  try {
    host = await startBrowserHost({ service, staticDir: RENDERER_DIR });
    const run = ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.id === runId);
    assert.equal(run?.state, 'interrupted', 'the run whose engine went away lists as interrupted');
    const { page, problems } = await openPage(suite.browser.context, host.url, { engineReady: true });
    // the same screen: the Training view on that run (both kept in the workspace's ui-state.json)
    await page.getByRole('heading', { name: 'Training', level: 1 }).waitFor({ timeout: 30_000 });
    await page.waitForFunction((id) => (globalThis as any).document.querySelector('[data-testid="run-picker"]')?.value === id, runId, { timeout: 30_000 });
    await page.getByTestId('run-state').filter({ hasText: /^interrupted$/ }).waitFor({ timeout: 30_000 });
    const after = await untilEpochs(page, before, 30_000);
    for (const t0 = Date.now(); Date.now() - t0 < 20_000 && (await epochPoints(page)) < after; ) await new Promise((r) => setTimeout(r, 200));
    assert.equal(await epochPoints(page), after, 'the epoch curve is drawn again with every recorded epoch');

    // Resume continues it from its last checkpoint (more epochs than before the restart), then it is stopped.
    await page.getByTestId('run-resume').click();
    await page.getByTestId('run-state').filter({ hasText: /^running$/ }).waitFor({ timeout: 120_000 });
    await untilEpochs(page, after + 1, 120_000);
    await page.getByTestId('run-stop').click();
    await page.getByTestId('run-state').filter({ hasText: /^stopped$/ }).waitFor({ timeout: 60_000 });
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await host?.close();
    await service.dispose();
  }
});
