// Debian's Chromium driven by playwright-core. Where it is missing the browser tests skip and say
// why, except in CI, where .ci/run installs it, so a missing browser fails instead.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function chromiumSkipReason(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI) throw new Error(`Chromium is required in CI but ${CHROMIUM} is missing (.ci/run should install it)`);
  return `Chromium not found at ${CHROMIUM}; install Debian's chromium (npm run setup -- --test-deps) to run the browser tests`;
}

export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'lino-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1366, height: 768 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
