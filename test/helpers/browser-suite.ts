// One browser-test setup for every e2e file: the real browser-mode host (real engine) and Debian's
// Chromium, started before the file's tests and stopped after; skipped with a printed reason where
// Chromium is missing (failing in CI instead).
import { before, after } from 'node:test';
import { mkdirSync } from 'node:fs';
import { startTestHost, ensureRendererBuilt, ROOT, type TestHost } from './host';
import { chromiumSkipReason, launchChromium } from './chromium';

export const SHOTS = `${ROOT}test-results/screenshots`;

export interface BrowserSuite {
  /** False, or why the browser tests skip. */
  skip: string | false;
  readonly host: TestHost;
  readonly browser: Awaited<ReturnType<typeof launchChromium>>;
}

export function browserSuite(setup?: (host: TestHost) => Promise<void> | void): BrowserSuite {
  const skip = chromiumSkipReason();
  if (skip) console.log(`# skipping browser tests: ${skip}`);
  let host: TestHost | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  before(async () => {
    if (skip) return;
    ensureRendererBuilt();
    mkdirSync(SHOTS, { recursive: true });
    host = await startTestHost();
    await setup?.(host);
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await host?.stop();
  });
  return {
    skip,
    get host() {
      if (!host) throw new Error('browser suite not started');
      return host;
    },
    get browser() {
      if (!browser) throw new Error('browser suite not started');
      return browser;
    },
  };
}
