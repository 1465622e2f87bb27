// End to end in Debian's Chromium against browser mode with the real engine: "Report (HTML)" in a
// run's details (Runs view) writes exports/report-<id>.html through runs.report and downloads it,
// "Report (PDF)" its PDF printed on the host;
// the downloaded file, opened with the network cut off, draws every figure and asks for nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedId } from '../helpers/trained-run';
import { standardRun } from '../helpers/standard-runs';
import { browserSuite } from '../helpers/browser-suite';
import { openPage, gotoView } from '../helpers/page';

let runId = '';
const suite = browserSuite(async (host) => {
  runId = await sharedId(host.service, host.workspace, standardRun('darcy', 'lino'));
});

test('runs view: "Report (HTML)" downloads the run\'s offline report, which draws every figure offline', { skip: suite.skip, timeout: 240_000 }, async () => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  await gotoView(page, 'Runs');
  await page.getByTestId(`run-row-${runId}`).getByTestId('run-notes-open').click();
  const card = page.getByTestId('run-report');
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Write the offline report of tiny darcy lino', exact: true }).click();
  const dl = await download;
  const name = `report-${runId}.html`;
  assert.equal(dl.suggestedFilename(), name);
  const saved = readFileSync(join(suite.host.workspace, 'exports', name), 'utf8');
  assert.equal(readFileSync((await dl.path())!, 'utf8'), saved);
  assert.ok(saved.includes(runId) && saved.includes('val relL2 (decoded)'));
  await card.getByTestId('run-report-status').filter({ hasText: `Saved exports/${name}` }).waitFor();
  // "Report (PDF)": the same report printed on the host by its Chromium (the one this test drives), downloaded
  const pdfDownload = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Write the offline report of tiny darcy lino and its PDF', exact: true }).click();
  const pdf = await pdfDownload;
  assert.equal(pdf.suggestedFilename(), `report-${runId}.pdf`);
  assert.equal(readFileSync((await pdf.path())!).subarray(0, 5).toString(), '%PDF-');
  await card.getByTestId('run-report-status').filter({ hasText: `and exports/report-${runId}.pdf` }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();

  // The downloaded file on its own, offline: every figure drawn, no request beyond the file.
  const offline = await suite.browser.context.newPage();
  await suite.browser.context.setOffline(true);
  const requests: string[] = [];
  await offline.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (requests.push(route.request().url()), route.abort())));
  try {
    // as the user would keep it: under its own name (playwright's download file has no extension, read as text)
    const kept = join(suite.host.workspace, 'downloaded', name);
    await dl.saveAs(kept);
    await offline.goto(pathToFileURL(kept).href);
    const figures = await offline.$$eval('svg.figure', (svgs) => svgs.map((s) => ({ h: s.getBoundingClientRect().height, marks: s.querySelectorAll('polyline, circle').length })));
    assert.ok(figures.length >= 4, `figures: ${figures.length}`);
    assert.ok(figures.every((f) => f.h > 100 && f.marks > 0), JSON.stringify(figures));
    assert.deepEqual(requests, []);
  } finally {
    await suite.browser.context.setOffline(false);
    await offline.close();
  }
});
