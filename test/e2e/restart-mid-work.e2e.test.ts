// A host restart in the middle of a view's work (Debian's Chromium, browser mode,
// the real engine): the host and its engine stop while a training run trains; a new host on the
// same workspace shows the Training view on that run, listed as interrupted, with its curve drawn
// again from the run's files, and Resume continues it from its last checkpoint; the same for a sweep
// in the Sweeps view (interrupted, resumable).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { RunSummary, SweepDetail } from '../../main/api/contract';
import { uiStatePath } from '../../main/services/ui-state';
import { browserSuite } from '../helpers/browser-suite';
import { RENDERER_DIR } from '../helpers/host';
import { testLauncher } from '../helpers/test-launcher';
import { startBrowserHost, type BrowserHost } from '../../main/hosts/browser/server';
import { WorkbenchService } from '../../main/services/workbench-service';
import { openPage, gotoView } from '../helpers/page';

const suite = browserSuite();
const skip = suite.skip;

/** The host now serving the workspace: the suite's first, then each restart's. */
let live: { service: WorkbenchService; host: BrowserHost } | null = null;
const current = () => live ?? { service: suite.host.service, host: suite.host.host };
/** Restart: this host and its engine stop (in the middle of the work); a new one starts on the same workspace. */
async function restartHost(): Promise<{ service: WorkbenchService; host: BrowserHost }> {
  const old = current();
  await old.host.close();
  await old.service.dispose();
  const service = new WorkbenchService({ host: 'browser', launcher: testLauncher(), workspace: suite.host.workspace, homeRoot: suite.host.home });
  live = { service, host: await startBrowserHost({ service, staticDir: RENDERER_DIR }) };
  return live;
}
after(async () => {
  await live?.host.close();
  await live?.service.dispose();
});

/** Waits until the workspace's ui-state.json holds what `ok` wants (the page saves it debounced). */
async function untilSaved(ok: (state: Record<string, any>) => boolean, what: string): Promise<void> {
  for (const t0 = Date.now(); Date.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 100))) {
    try {
      if (ok(JSON.parse(readFileSync(uiStatePath(suite.host.workspace), 'utf8')).state)) return;
    } catch {
      /* not written yet */
    }
  }
  throw new Error(`ui-state.json did not save ${what}`);
}

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
  await gotoView(first.page, 'Training');
  const { runId } = (await suite.host.service.call('train.start', { config } as never)) as { runId: string };
  await first.page.getByTestId('run-picker').selectOption(runId);
  await first.page.getByTestId('run-state').filter({ hasText: /^running$/ }).waitFor({ timeout: 120_000 });
  const before = await untilEpochs(first.page, 1, 120_000);
  await untilSaved((st) => st.view === 'training' && st.selectedRun === runId, 'the Training view on the run');
  await first.page.close();
  assert.deepEqual(first.problems, []);

  const { service, host } = await restartHost();
  const run = ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.id === runId);
  assert.equal(run?.state, 'interrupted', 'the run whose engine went away lists as interrupted');
  const { page, problems } = await openPage(suite.browser.context, host.url, { engineReady: true });
  // the same screen: the Training view on that run (both kept in the workspace's ui-state.json)
  await page.getByRole('heading', { name: 'Training', level: 1 }).waitFor({ timeout: 30_000 });
  await page.waitForFunction((id) => (globalThis as any).document.querySelector('[data-testid="run-picker"]')?.value === id, runId, { timeout: 30_000 });
  await page.getByTestId('run-state').filter({ hasText: /^interrupted$/ }).waitFor({ timeout: 30_000 });
  const shown = await untilEpochs(page, before, 30_000);
  for (const t0 = Date.now(); Date.now() - t0 < 20_000 && (await epochPoints(page)) < shown; ) await new Promise((r) => setTimeout(r, 200));
  assert.equal(await epochPoints(page), shown, 'the epoch curve is drawn again with every recorded epoch');

  // Resume continues it from its last checkpoint (more epochs than before the restart), then it is stopped.
  await page.getByTestId('run-resume').click();
  await page.getByTestId('run-state').filter({ hasText: /^running$/ }).waitFor({ timeout: 120_000 });
  await untilEpochs(page, shown + 1, 120_000);
  await page.getByTestId('run-stop').click();
  await page.getByTestId('run-state').filter({ hasText: /^stopped$/ }).waitFor({ timeout: 60_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a host restart in the middle of a sweep: the Sweeps view shows the sweep, interrupted, and Resume continues it', { skip, timeout: 240_000 }, async () => {
  const first = await openPage(suite.browser.context, current().host.url, { engineReady: true });
  await gotoView(first.page, 'Sweeps');
  const config = {
    name: 'restarted-sweep',
    base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 200, batchSize: 4 },
    axes: [{ path: 'optimizer.lr', values: [0.001, 0.01] }], method: 'grid', seeds: 1,
  };
  await first.page.getByRole('tab', { name: 'sweep.json' }).click();
  await first.page.getByTestId('sweep-json').fill(JSON.stringify(config, null, 2));
  await first.page.getByTestId('sweep-start').click();
  const status = first.page.getByTestId('sweep-status');
  await status.waitFor({ timeout: 60_000 });
  const id = (await first.page.getByTestId('sweep-detail').locator('h2 span').textContent())!.replace(/[()]/g, '');
  const detail = async (s: WorkbenchService) => (await s.call('sweeps.get', { id } as never)) as SweepDetail;
  for (const t0 = Date.now(); (await detail(current().service)).state.trials[0]?.state !== 'running'; await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 120_000) throw new Error('the sweep\'s first trial did not start');
  }
  await untilSaved((st) => st.view === 'sweeps' && st.views?.['sweeps.chosen'] === id, 'the Sweeps view on the sweep');
  await first.page.close();
  assert.deepEqual(first.problems, []);

  const { service, host } = await restartHost();
  const { page, problems } = await openPage(suite.browser.context, host.url, { engineReady: true });
  await page.getByRole('heading', { name: 'Sweeps', level: 1 }).waitFor({ timeout: 30_000 });
  await page.getByTestId('sweep-detail').locator('h2 span').filter({ hasText: `(${id})` }).waitFor({ timeout: 30_000 });
  await page.getByTestId('sweep-status').filter({ hasText: /interrupted: resume continues it/ }).waitFor({ timeout: 30_000 });
  const resume = page.getByRole('button', { name: 'Resume' });
  for (const t0 = Date.now(); !(await resume.isEnabled()); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 30_000) throw new Error('Resume is not offered for the interrupted sweep');
  }
  await resume.click();
  for (const t0 = Date.now(); (await detail(service)).state.trials.filter((t) => t.state === 'running').length === 0; await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 120_000) throw new Error(`the resumed sweep trains no trial: ${JSON.stringify((await detail(service)).summary)}`);
  }
  await page.getByRole('button', { name: 'Stop' }).click();
  for (const t0 = Date.now(); (await detail(service)).summary.active; await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 60_000) throw new Error('the sweep did not stop');
  }
  assert.deepEqual(problems, []);
  await page.close();
});
