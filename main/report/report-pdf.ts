// The report as PDF: the HTML printed by a headless Chromium when one is installed (the CLI has no
// browser of its own; the app's PDF exports use jsPDF in the renderer). Where none is found the
// caller says so and keeps the HTML, which prints to PDF from any browser.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

/** CHROMIUM_PATH, else the first usual install found; null when there is none. */
export function findChromium(): string | null {
  const env = process.env.CHROMIUM_PATH;
  if (env) return existsSync(env) ? env : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Prints `html` (a file) to `pdf` with Chromium, network off; rejects with Chromium's message when it fails. Asynchronous: the app's host keeps answering meanwhile. */
export function printToPdf(chromium: string, html: string, pdf: string, timeoutMs = 120_000): Promise<void> {
  const args = [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>', '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, pathToFileURL(html).href,
  ];
  return new Promise((resolve, reject) => {
    execFile(chromium, args, { encoding: 'utf8', timeout: timeoutMs }, (err, _out, stderr) => {
      if (!err && existsSync(pdf) && statSync(pdf).size > 0) return resolve();
      reject(new Error(`printing ${html} to ${pdf} with ${chromium} failed: ${err?.message ?? ''} ${(stderr || '').trim().split('\n').slice(-3).join(' ')}`.trim()));
    });
  });
}
