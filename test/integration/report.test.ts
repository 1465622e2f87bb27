// The offline report end to end: a tiny run trained through the real engine (the standard tiny
// Darcy LiNO, shared), annotated, then reported through the app's call (runs.report) and through
// `lino report`. The file must hold the configuration with defaults, seed, data provenance,
// environment, both relL2 conventions, the notes and tags; name no URL; and open in headless
// Chromium with the network cut off, every figure drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { engineService } from '../helpers/engine-service';
import type { RunSummary } from '../../main/api/contract';
import { standardRun } from '../helpers/standard-runs';
import { chromiumSkipReason, launchChromium, CHROMIUM } from '../helpers/chromium';

const root = new URL('../../', import.meta.url).pathname;
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { encoding: 'utf8', cwd: root, env: { ...process.env, CHROMIUM_PATH: CHROMIUM } });

const { service, workspace, shared } = engineService();
const NOTES = 'Tiny Darcy check <b>not bold</b> & kept as text.';

async function reportedRun(): Promise<{ id: string; html: string; file: string }> {
  const r = await shared(standardRun('darcy', 'lino'));
  assert.equal(r.state, 'done', r.reason);
  await service.call('runs.annotate', { id: r.id, notes: NOTES, tags: ['baseline', 'tiny'] });
  const out = (await service.call('runs.report', { id: r.id })) as { name: string; size: number };
  const file = join(workspace, 'exports', out.name);
  assert.equal(statSync(file).size, out.size);
  return { id: r.id, html: readFileSync(file, 'utf8'), file };
}

let cached: Promise<{ id: string; html: string; file: string }> | null = null;
const run = () => (cached ??= reportedRun());

test('a run report holds configuration with defaults, seed, provenance, environment, both conventions, notes and tags', async () => {
  const { id, html } = await run();
  assert.match(html, /^<!DOCTYPE html>/);
  assert.ok(html.includes(id), 'names the run id');
  // defaults filled in: the optimizer's and schedule's defaults appear though the config set neither
  assert.match(html, /&quot;weightDecay&quot;: 0\.00001|"weightDecay": 0\.00001|weightDecay&quot;: 1e-5/);
  assert.match(html, /&quot;gamma&quot;: 0\.96/);
  assert.match(html, /<th scope="row">seed<\/th><td>1<\/td>/);
  assert.match(html, /content hash[^<]*<\/th><td>[0-9a-f]{16,}/, 'the data content hash');
  assert.match(html, /&quot;benchmark&quot;:&quot;darcy&quot;/, 'the data specification names the generator');
  assert.match(html, /<th scope="row">backend<\/th><td>[a-z-]+/);
  assert.match(html, /<th scope="row">LiNO Workbench \(the build writing this report\)<\/th><td>\d+\.\d+\.\d+/);
  assert.match(html, /<th scope="row">TensorFlow\.js \(that build\)<\/th><td>\d+\.\d+\.\d+/);
  assert.ok(html.includes('val relL2 (normalized)') && html.includes('val relL2 (decoded)'), 'both relL2 conventions');
  assert.match(html, /<th scope="row">best val relL2 \(normalized, the workspace's headline\)<\/th><td>\d\.\d{3}/, 'the headline convention leads the facts');
  assert.ok(html.includes('normalized: on the normalized fields') && html.includes('decoded: on the decoded fields'), 'each convention explained');
  assert.ok(html.includes('Tiny Darcy check &lt;b&gt;not bold&lt;/b&gt; &amp; kept as text.'), 'the notes, escaped');
  assert.ok(html.includes('<span class="tag">baseline</span>') && html.includes('<span class="tag">tiny</span>'));
  assert.ok((html.match(/<svg /g) ?? []).length >= 4, 'curves as inline SVG');
});

test('the report names no URL and loads nothing: no script, no src or href attribute', async () => {
  noUrl((await run()).html);
});

test('an unknown id is refused, naming the id', async () => {
  await assert.rejects(service.call('runs.report', { id: 'no-such-run' }), /run 'no-such-run' not found/);
  await assert.rejects(service.call('sweeps.report', { id: '../../etc' }), /not a sweep/);
});

test('lino report writes the same report from the command line', async () => {
  const { id } = await run();
  const out = join(workspace, 'cli-report.html');
  const r = lino('report', id, '--out', out, '--workspace', workspace);
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(out, 'utf8');
  assert.ok(html.includes(id) && html.includes('val relL2 (decoded)'));
  const bad = lino('report', 'nope', '--out', join(workspace, 'x.html'), '--workspace', workspace);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /'nope' is not a run, sweep or reproduction/);
});

/** Opens `file` in headless Chromium, offline with every non-file request aborted; answers each figure's size and marks, and the requests made. */
async function openOffline(file: string) {
  const browser = await launchChromium();
  try {
    await browser.context.setOffline(true);
    const requests: string[] = [];
    await browser.context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(file).href);
    const figures = await page.$$eval('svg.figure', (svgs) => svgs.map((s) => {
      const b = s.getBoundingClientRect();
      return { title: s.getAttribute('aria-label'), w: b.width, h: b.height, marks: s.querySelectorAll('polyline, circle').length };
    }));
    return { figures, requests };
  } finally {
    await browser.close();
  }
}

function assertDrawn(r: Awaited<ReturnType<typeof openOffline>>, min: number): void {
  assert.ok(r.figures.length >= min, `figures: ${r.figures.length}, expected at least ${min}`);
  for (const f of r.figures) {
    assert.ok(f.w > 100 && f.h > 100, `${f.title}: drawn at ${f.w}×${f.h}`);
    assert.ok(f.marks > 0, `${f.title}: no curve drawn`);
  }
  assert.deepEqual(r.requests, [], 'the page asked for nothing outside its file');
}

const noUrl = (html: string) => {
  assert.doesNotMatch(html, /https?:\/\//i);
  assert.doesNotMatch(html, /\s(src|href|xlink:href)\s*=/i);
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|@import|url\(/i);
};

test('the report opens in headless Chromium with the network off, every figure drawn; --pdf prints it', { skip: chromiumSkipReason() }, async () => {
  const { file, id } = await run();
  assertDrawn(await openOffline(file), 4);
  const viaApp = (await service.call('runs.report', { id, pdf: true })) as { pdf: string | null };
  assert.equal(viaApp.pdf, `report-${id}.pdf`);
  assert.equal(readFileSync(join(workspace, 'exports', viaApp.pdf)).subarray(0, 5).toString(), '%PDF-');
  const pdf = join(workspace, 'report.pdf');
  const r = lino('report', id, '--out', join(workspace, 'r.html'), '--pdf', pdf, '--workspace', workspace);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(pdf));
  assert.equal(readFileSync(pdf).subarray(0, 5).toString(), '%PDF-');
});

const BASE = { model: { width: 4, depth: 1 }, data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', train: 4, val: 2 }, epochs: 2, batchSize: 2, seed: 1 };

test('a sweep report (sweeps.report): every trial in both conventions, its curves drawn offline', async (t) => {
  const config = join(workspace, 'sweep.json');
  writeFileSync(config, JSON.stringify({ name: 'report width', base: BASE, axes: [{ path: 'model.width', values: [4, 6] }], method: 'grid', seeds: 1 }));
  const r = lino('sweep', '--config', config, '--workspace', workspace, '--id', 'report-width');
  assert.equal(r.status, 0, r.stderr);
  const out = (await service.call('sweeps.report', { id: 'report-width' })) as { name: string };
  const file = join(workspace, 'exports', out.name);
  const html = readFileSync(file, 'utf8');
  noUrl(html);
  assert.ok(html.includes('val relL2 (normalized), mean ± std') && html.includes('val relL2 (decoded), mean ± std'));
  assert.equal((html.match(/<td>report-width-[^<]*<\/td>/g) ?? []).length, 2, 'both trials listed');
  assert.match(html, /&quot;weightDecay&quot;/, 'the base configuration with its defaults');
  if (chromiumSkipReason()) return t.diagnostic(`not opened: ${chromiumSkipReason()}`);
  assertDrawn(await openOffline(file), 2);
});

test('a reproduction (the tiny Darcy ablation) reports its table, the paper\'s rows and each arm\'s curves', async (t) => {
  const r = lino('reproduce', 'darcy-ablation', '--size', 'tiny', '--workspace', workspace);
  assert.equal(r.status, 0, r.stderr);
  const file = join(workspace, 'ablation.html');
  const c = lino('report', 'reproduce-darcy-ablation-tiny', '--out', file, '--workspace', workspace);
  assert.equal(c.status, 0, c.stderr);
  const html = readFileSync(file, 'utf8');
  noUrl(html);
  // the Reproduce view's button: the same report through reproduce.report, into exports/
  const viaApp = (await service.call('reproduce.report', { id: 'reproduce-darcy-ablation-tiny' })) as { name: string };
  assert.equal(viaApp.name, 'report-reproduce-darcy-ablation-tiny.html');
  assert.equal(readFileSync(join(workspace, 'exports', viaApp.name), 'utf8').replace(/written \S+/, ''), html.replace(/written \S+/, ''));
  assert.ok(html.includes('reported (paper)') && html.includes('measured (this machine)'));
  assert.ok(html.includes('relL2 normalized') && html.includes('relL2 decoded'));
  for (const arm of ['full', 'no-scattering', 'no-reflection', 'no-refraction']) assert.ok(html.includes(`${arm}: val relL2 per epoch`), arm);
  // one arm's run reports its seed group: each seed and the mean ± std, in both conventions
  const full = ((await service.call('runs.list', {})) as RunSummary[]).filter((x) => x.group?.startsWith('darcy-ablation-tiny-full'));
  assert.equal(full.length, 2);
  const armReport = readFileSync(join(workspace, 'exports', ((await service.call('runs.report', { id: full[0]!.id })) as { name: string }).name), 'utf8');
  assert.ok(armReport.includes(`${full[0]!.id} (this run)`) && armReport.includes(full[1]!.id));
  assert.match(armReport, /mean ± std over 2 seeds<\/td><td><\/td><td>—<\/td><td class="num">[\d.]+ ± [\d.]+<\/td><td class="num">[\d.]+ ± [\d.]+/);
  if (chromiumSkipReason()) return t.diagnostic(`not opened: ${chromiumSkipReason()}`);
  assertDrawn(await openOffline(file), 4);
});
