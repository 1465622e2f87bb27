// Exports a finished sweep's figures and tables through the Sweeps view's own export buttons, in
// headless Chromium against browser mode (the real engine) on the sweep's workspace: the parallel
// coordinates as SVG and PDF, the importance and configuration tables as CSV and LaTeX, and a
// screenshot of the view. What docs/training.md shows for the Darcy sweep comes from here.
// Usage: node --import tsx scripts/export-sweep-figures.ts --workspace DIR --id SWEEP_ID --out DIR [--prefix NAME]
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { startBrowserHost } from '../main/hosts/browser/server';
import { WorkbenchService } from '../main/services/workbench-service';
import { forkLauncher } from '../main/services/engine-launcher';
import { ensureRendererBuilt, RENDERER_DIR } from '../test/helpers/host';
import { launchChromium } from '../test/helpers/chromium';
import { gotoView, openPage } from '../test/helpers/page';

const { values } = parseArgs({ options: { workspace: { type: 'string' }, id: { type: 'string' }, out: { type: 'string' }, prefix: { type: 'string' } } });
if (!values.workspace || !values.id || !values.out) {
  console.error('usage: node --import tsx scripts/export-sweep-figures.ts --workspace DIR --id SWEEP_ID --out DIR [--prefix NAME]');
  process.exit(2);
}
const workspace = resolve(values.workspace);
const out = resolve(values.out);
const prefix = values.prefix ?? values.id;
const exportsDir = join(workspace, 'exports');

/** Clicks an export button and answers the file it saved (new in exports/). */
async function saved(page: Page, button: RegExp): Promise<string> {
  mkdirSync(exportsDir, { recursive: true });
  const before = new Set(readdirSync(exportsDir));
  await page.getByRole('button', { name: button }).click();
  for (const t0 = Date.now(); Date.now() - t0 < 60_000; await new Promise((r) => setTimeout(r, 200))) {
    const name = readdirSync(exportsDir).find((n) => !before.has(n));
    if (name) {
      await new Promise((r) => setTimeout(r, 500)); // written atomically, but let the status settle
      return join(exportsDir, name);
    }
  }
  throw new Error(`no file saved after clicking ${button}`);
}

async function main(): Promise<void> {
  ensureRendererBuilt();
  // settings and the host's home in a temporary folder: the user's own are not touched
  const scratch = mkdtempSync(join(tmpdir(), 'lino-sweep-figures-'));
  process.env.LINO_CONFIG_DIR = join(scratch, 'config');
  const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace, homeRoot: join(scratch, 'home') });
  const host = await startBrowserHost({ service, staticDir: RENDERER_DIR });
  const browser = await launchChromium();
  try {
    const { page } = await openPage(browser.context, host.url, { engineReady: true });
    await gotoView(page, 'Sweeps');
    await page.getByTestId('sweep-list').getByText(`(${values.id})`).click();
    await page.getByTestId('sweep-parallel').locator('svg path.pc-line').first().waitFor({ timeout: 60_000 });
    mkdirSync(out, { recursive: true });
    const files: [RegExp, string][] = [
      [/parallel coordinates as SVG/, 'parallel-coordinates.svg'],
      [/parallel coordinates as PDF/, 'parallel-coordinates.pdf'],
      [/importance as CSV/, 'importance.csv'],
      [/importance as LaTeX/, 'importance.tex'],
      [/configurations as CSV/, 'configurations.csv'],
    ];
    for (const [button, name] of files) {
      const from = await saved(page, button);
      copyFileSync(from, join(out, `${prefix}-${name}`));
      console.log(`${join(out, `${prefix}-${name}`)} (from ${from})`);
    }
    await page.setViewportSize({ width: 1366, height: 1800 });
    await page.getByTestId('sweep-detail').screenshot({ path: join(out, `${prefix}-sweeps-view.png`) });
    console.log(join(out, `${prefix}-sweeps-view.png`));
  } finally {
    await browser.close();
    await host.close();
    await service.dispose();
    if (existsSync(scratch)) rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
