// PyTorch runs from the UI (Chromium against browser mode with the real engine and Debian's
// python3-torch). The Training view's backend picker offers PyTorch CPU (found by the engine's
// probe) and, once it is chosen, measures how much faster torch trains than the engine here and
// says so. Then every model kind trains on torch cpu from the UI: a LiNO, an FNO and a DeepONet on
// a tiny Darcy set and a LiNO Navier–Stokes rollout: pick the backend, curves appear live, Stop,
// Resume, done. The kinds overlap (training slots for four): while one resumed run finishes, the
// next one starts. The Ablation and Reproduce views' pickers start their variants and presets on
// the chosen backend.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { JobSummary } from '../../main/api/contract';
import { browserSuite } from '../helpers/browser-suite';
import type { TestHost } from '../helpers/host';
import { openPage, gotoView } from '../helpers/page';
import { speedRatioText } from '../../renderer/src/logic/backend-choice';

const PY = '/usr/bin/python3';
const noTorch = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
process.env.LINO_PYTHON = PY; // the host's engine inherits it
process.env.OMP_NUM_THREADS = '1';
// a resumed run finishes while the next kind starts
process.env.LINO_TRAINING_SLOTS = '4';

const data = { darcy: '', ns: '' };
/** A tiny stored Darcy set (6 samples at 29²) and Navier–Stokes set (5 trajectories at 16², 10 frames -> 10), shared by the runs. */
const suite = browserSuite(async (host: TestHost) => {
  const call = (m: string, p: unknown) => host.service.call(m as never, p as never) as Promise<unknown>;
  const jobs = await Promise.all([
    call('datasets.generate', { benchmark: 'darcy', preset: 'tiny' }),
    call('datasets.generate', { benchmark: 'navier-stokes', preset: 'tiny', samples: 5, resolution: 16 }),
  ]) as JobSummary[];
  for (const [i, k] of (['darcy', 'ns'] as const).entries()) {
    let done: JobSummary | undefined;
    for (const t0 = Date.now(); !done; await new Promise((r) => setTimeout(r, 100))) {
      done = ((await call('jobs.list', {})) as JobSummary[]).find((j) => j.id === jobs[i]!.id && ['done', 'failed', 'cancelled'].includes(j.state));
      if (Date.now() - t0 > 120_000) throw new Error(`timed out generating the ${k} set`);
    }
    assert.equal(done.state, 'done', done.error);
    data[k] = (done.result as { id: string }).id;
  }
});
const skip = suite.skip || noTorch;

interface Kind { name: string; kind: 'lino' | 'fno' | 'deeponet'; fields: Record<string, string>; data: keyof typeof data; epochs: number }
// Long enough to stop while it trains (tiny models: the epochs' validation and checkpoints take most of the time).
// The last one's end is waited for alone: the quickest epochs go last.
const KINDS: Kind[] = [
  { name: 'e2e torch lino', kind: 'lino', fields: { width: '8', depth: '1' }, data: 'darcy', epochs: 60 },
  { name: 'e2e torch ns rollout', kind: 'lino', fields: { width: '8', depth: '1' }, data: 'ns', epochs: 20 },
  { name: 'e2e torch fno', kind: 'fno', fields: { width: '8', depth: '1', modes: '4' }, data: 'darcy', epochs: 60 },
  { name: 'e2e torch deeponet', kind: 'deeponet', fields: { width: '16', depth: '2', basis: '8' }, data: 'darcy', epochs: 60 },
];

const points = (page: Page) => page.evaluate(() => parseInt((globalThis as any).document.querySelector('[data-testid="curve-points"]')?.textContent ?? '0', 10) || 0);
const stepsOver = (page: Page, n: number) => page.waitForFunction((k) => (parseInt((globalThis as any).document.querySelector('[data-testid="curve-points"]')?.textContent ?? '0', 10) || 0) > k, n, { timeout: 90_000 });

/** The run's state as the Training view shows it, waited for; the run's folder on failure. */
async function shownState(page: Page, id: string, state: RegExp, ms = 90_000): Promise<void> {
  await page.getByTestId('run-state').filter({ hasText: state }).waitFor({ timeout: ms }).catch(async (e: Error) => {
    const r = await suite.host.service.call('runs.get', { id });
    throw new Error(`${e.message}\nshown: ${await page.getByTestId('run-state').textContent()}\nrun: ${JSON.stringify(r).slice(0, 2000)}\nevents.log: ${readFileSync(join(suite.host.workspace, 'runs', id, 'events.log'), 'utf8').slice(-3000)}`);
  });
}

/** Model view: the kind and its fields; Training view: data, epochs, name, Start. Answers the run's id. */
async function startKind(page: Page, k: Kind): Promise<string> {
  await gotoView(page, 'Model');
  await page.getByTestId('model-kind').selectOption(k.kind);
  for (const [f, v] of Object.entries(k.fields)) await page.getByTestId(`field-${f}`).fill(v);
  await gotoView(page, 'Training');
  assert.equal(await page.getByTestId('train-backend').inputValue(), 'torch:cpu', 'the choice is kept');
  await page.getByTestId('train-data').selectOption(`dataset:${data[k.data]}`);
  await page.getByTestId('train-epochs').fill(String(k.epochs));
  await page.getByTestId('train-batch').fill('1');
  await page.getByTestId('train-name').fill(k.name);
  await page.getByTestId('train-start').click();
  await page.waitForFunction((n) => ((globalThis as any).document.querySelector('[data-testid="run-picker"] option:checked')?.textContent ?? '').startsWith(n), k.name, { timeout: 30_000 }).catch(async (e: Error) => {
    const form = await page.locator('.card', { hasText: 'New run' }).textContent();
    const picked = await page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="run-picker"] option:checked')?.textContent);
    const runs = ((await suite.host.service.call('runs.list', {})) as { name: string; state: string }[]).map((r) => `${r.name}: ${r.state}`);
    throw new Error(`${k.name}: not started (${e.message})\nthe form: ${form}\npicked: ${picked}\nruns: ${runs.join('; ')}`);
  });
  return page.getByTestId('run-picker').inputValue();
}

/** Live curves on torch-cpu, Stop (stopped), Resume (running again); does not wait for the end. */
async function stopAndResume(page: Page, id: string): Promise<void> {
  await shownState(page, id, /^running$/);
  await stepsOver(page, 2);
  await page.getByTestId('stat-backend').filter({ hasText: /torch-cpu/ }).waitFor({ timeout: 60_000 });
  await page.evaluate(() => (globalThis as any).document.querySelector('[data-testid="run-stop"]').click());
  await shownState(page, id, /^stopped$/, 60_000);
  const atStop = await points(page);
  await page.getByTestId('run-resume').click();
  await shownState(page, id, /^(queued|running|done)$/, 60_000);
  assert.ok(atStop > 2);
}

const ids: Record<string, string> = {};

test('Training view: PyTorch CPU with its measured speed; a LiNO, an FNO, a DeepONet and a Navier–Stokes rollout train on it: curves live, Stop, Resume, done', { skip, timeout: 420_000 }, async (tc) => {
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });
  tc.after(async () => {
    for (const r of (await suite.host.service.call('runs.list', {})) as { id: string; state: string }[]) {
      if (['running', 'paused', 'queued'].includes(r.state)) await suite.host.service.call('train.stop', { id: r.id });
    }
  });
  // the Workspace view's PyTorch card: what the probe found (LINO_PYTHON set here wins over the setting)
  await gotoView(page, 'Workspace');
  await page.getByTestId('workspace-torch').filter({ hasText: /^PyTorch 1\.13.* at \/usr\/bin\/python3/ }).waitFor({ timeout: 60_000 });
  await gotoView(page, 'Training');
  // the probe's answer: the option is enabled and the interpreter is named; nothing measured yet
  await page.getByTestId('train-backend-torch').filter({ hasText: /PyTorch 1\.13/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId('train-backend-speed').filter({ hasText: /torch cpu: not measured/ }).waitFor({ timeout: 30_000 });
  // choosing torch measures it once (a job of the analysis lane), then the picker says how much faster
  await page.getByTestId('train-backend').selectOption('torch:cpu');
  const speed = page.getByTestId('train-backend-speed').filter({ hasText: /measured \d/ });
  await speed.waitFor({ timeout: 180_000 });
  const said = (await speed.textContent())!;
  assert.match(said, /^torch cpu: \d+\.\d+× (faster|slower) than wasm here \(\d+(\.\d)? ms against \d+(\.\d)? ms a step\), measured .*\d\d:\d\d on a LiNO 32² \(width 32, depth 4, batch 4\) step/);
  const measured = ((await suite.host.service.call('train.torchSpeed', {})) as { measured: { device: string; speedup: number }[] }).measured;
  assert.equal(measured.length, 1);
  assert.ok(said.startsWith(`torch cpu: ${speedRatioText(measured[0]!.speedup)} than wasm`), `${said} (speedup ${measured[0]!.speedup})`);
  assert.match((await page.getByTestId('train-backend-torch:cpu').textContent())!, /^PyTorch, CPU — \d+\.\d+× (faster|slower) than wasm here$/);

  const t0 = Date.now();
  for (const k of KINDS) {
    ids[k.name] = await startKind(page, k);
    await stopAndResume(page, ids[k.name]!);
    console.log(`# ${k.name}: started, stopped and resumed at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const k of KINDS) {
    const id = ids[k.name]!;
    await page.getByTestId('run-picker').selectOption(id);
    await shownState(page, id, /^done$/, 120_000);
    const run = (await suite.host.service.call('runs.get', { id })) as { config: { backend?: string; torch?: { device: string }; model: { kind: string } }; status: { state: string; backend?: string; epoch?: number } };
    assert.deepEqual([run.config.backend, run.config.torch?.device, run.config.model.kind ?? 'lino', run.status.state, run.status.epoch], ['torch', 'cpu', k.kind, 'done', k.epochs], k.name);
    assert.match(run.status.backend ?? '', /^torch-cpu/, k.name);
    const epochs = readFileSync(join(suite.host.workspace, 'runs', id, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; epochSeconds?: number }).filter((r) => r.type === 'epoch');
    console.log(`# ${k.name}: ${epochs.length} epochs, ${epochs.reduce((a, r) => a + (r.epochSeconds ?? 0), 0).toFixed(1)} s of training`);
    // stopped once and resumed: the log says PyTorch resumed from a checkpoint
    assert.match(readFileSync(join(suite.host.workspace, 'runs', id, 'events.log'), 'utf8'), /resuming from checkpoints\/last: epoch \d+/, k.name);
  }
  console.log(`# all done at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Ablation, Reproduce and Sweeps views: the same picker and measured speed; the variants and the preset start on the chosen backend, the sweep.json names it', { skip, timeout: 180_000 }, async (tc) => {
  const base = ids['e2e torch lino'];
  assert.ok(base, 'the LiNO torch run of the test above');
  const service = suite.host.service;
  // what the views ask the real engine for (recorded, passed on unchanged)
  const asked: { method: string; params: any }[] = [];
  const call = service.call.bind(service);
  service.call = ((method: string, params: unknown) => {
    asked.push({ method, params });
    return call(method as never, params as never);
  }) as typeof service.call;
  tc.after(() => { service.call = call; });
  const { page, problems } = await openPage(suite.browser.context, suite.host.host.url, { engineReady: true });

  await gotoView(page, 'Ablation');
  await page.getByTestId('run-picker').selectOption(base);
  await page.getByTestId('ablation-backend-speed').filter({ hasText: /^torch cpu: \d+\.\d+× (faster|slower) than wasm here/ }).waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('ablation-backend-torch:cpu').textContent())!, /× (faster|slower) than wasm here$/);
  // the base trained on torch; the variants go where the picker says: here, the engine
  assert.equal(await page.getByTestId('ablation-backend').inputValue(), 'engine');
  await page.getByTestId('ablation-backend-base').filter({ hasText: 'The base run trained on PyTorch (cpu)' }).waitFor();
  await page.getByTestId('ablation-backend').selectOption('torch:cpu');
  await page.getByTestId('ablation-backend-base').waitFor({ state: 'detached' });
  await page.getByTestId('ablation-backend').selectOption('engine');
  await page.getByTestId('ablation-seeds').fill('1');
  await page.getByTestId('ablation-launch').filter({ hasText: /Launch 4 variants \(4 runs\)/ }).click();
  await page.getByTestId('ablation-launch').filter({ hasText: 'All variants launched' }).waitFor({ timeout: 30_000 });
  const sweep = ((await call('sweeps.list', {})) as { id: string; name: string }[]).find((s) => s.name === `ablation ${base}`)!;
  await call('sweeps.control', { id: sweep.id, action: 'stop' });
  const variants = ((await call('runs.list', {})) as { id: string; group: string | null }[]).filter((r) => r.group?.startsWith(`${base}/`));
  assert.equal(variants.length, 4);
  for (const v of variants) {
    const c = ((await call('runs.get', { id: v.id })) as { config: { backend?: string; torch?: unknown } }).config;
    assert.deepEqual([c.backend, c.torch], [undefined, undefined], `${v.group}: on the engine`);
  }

  await gotoView(page, 'Reproduce');
  await page.getByTestId('reproduce-backend-speed').filter({ hasText: /measured \d/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('reproduce-backend').selectOption('torch:cpu');
  await page.getByTestId('reproduce-size').selectOption('tiny');
  await page.getByTestId('reproduce-start').click();
  await page.getByTestId('reproduce-progress').waitFor({ timeout: 30_000 });
  const start = asked.find((a) => a.method === 'reproduce.start');
  assert.equal(start?.params.backend, 'torch:cpu', JSON.stringify(start));
  const job = ((await call('jobs.list', {})) as JobSummary[]).find((j) => j.kind === 'reproduce' && (j.state === 'queued' || j.state === 'running'));
  if (job) await call('jobs.cancel', { id: job.id });

  // Sweeps: the same picker in the form; its choice is the sweep.json's base (Show as sweep.json)
  await gotoView(page, 'Sweeps');
  await page.getByTestId('sweep-backend-speed').filter({ hasText: /measured \d/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('sweep-backend').selectOption('torch:cpu');
  await page.getByRole('button', { name: 'Show as sweep.json' }).click();
  const sweepJson = JSON.parse(await page.getByTestId('sweep-json').inputValue()) as { base: { backend?: string; torch?: unknown } };
  assert.deepEqual([sweepJson.base.backend, sweepJson.base.torch], ['torch', { device: 'cpu' }]);
  assert.deepEqual(problems, []);
  await page.close();
});
