// A workbench page for browser tests: records uncaught errors and console errors (CSP refusals
// show up there) so a test can assert there were none, and moves between views by the nav.
import type { BrowserContext, Page } from 'playwright-core';

export async function openPage(context: BrowserContext, url: string, o: { engineReady?: boolean } = {}): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  await page.goto(url);
  if (o.engineReady) await page.getByTestId('engine-backend').waitFor({ timeout: 60_000 });
  return { page, problems };
}

/** Opens a view from the nav and waits for its heading. */
export async function gotoView(page: Page, view: string): Promise<void> {
  await page.getByRole('button', { name: view, exact: true }).click();
  await page.getByRole('heading', { name: view, level: 1 }).waitFor();
}
