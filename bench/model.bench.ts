// LiNO training-step bench: forward, backward, AdamW update, on the active backend, against the
// PyTorch reference (tools/parity/bench_step.py, best of 1 and 2 threads) in the same run.
// Then time and peak memory per step over grid sizes for efficient and full scattering, and the
// fitted exponent of time in N.   npm run bench model   (LINO_BENCH_QUICK=1 for a short run)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { selectBackend, formatBackendReport } from '../main/ops/backend';
import { LinoOperator } from '../main/model/lino/operator';
import { estimateLino } from '../main/model/lino/estimate';
import type { LinoConfig } from '../main/model/lino/config';
import { AdamW } from '../main/train/adamw';
import { trainStep } from './model-step';
import { DataParallelTrainer } from '../main/train/data-parallel';
import { availableParallelism } from 'node:os';

const PY = '/usr/bin/python3';
const QUICK = !!process.env.LINO_BENCH_QUICK;
// wasm memory is capped at 4 GiB; keep the estimated step below this (micro-batching otherwise).
const MEM_BUDGET = 2.5 * 2 ** 30;

interface BenchCase { name: string; config: LinoConfig; grid: number[]; batch: number; steps: number }

const CASES: BenchCase[] = [
  { name: 'Darcy 2D 32^2, M=32, L=4, B=4, efficient', config: { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] }, grid: [32, 32], batch: 4, steps: 7 },
  { name: 'Burgers 1D 256, M=32, L=4, B=4, full', config: { dims: 1, inChannels: 2, outChannels: 1, width: 32, depth: 4, scattering: 'full', components: ['reflection', 'refraction', 'scattering'] }, grid: [256], batch: 4, steps: 7 },
  { name: 'Darcy 2D 64^2, M=64, L=4, B=4, efficient', config: { dims: 2, inChannels: 3, outChannels: 1, width: 64, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] }, grid: [64, 64], batch: 4, steps: 3 },
];

function microBatchFor(cfg: LinoConfig, grid: number[], batch: number): number | undefined {
  for (let mb = batch; mb >= 1; mb = Math.floor(mb / 2)) {
    if (estimateLino(cfg, grid, mb).activationBytes <= MEM_BUDGET) return mb;
    if (mb === 1) break;
  }
  return undefined;
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

async function timeOurs(cfg: LinoConfig, grid: number[], batch: number, steps: number, warmup = 2, profileMemory = false) {
  const mb = microBatchFor(cfg, grid, batch);
  if (mb === undefined) return undefined;
  const model = new LinoOperator({ ...cfg, seed: 1 });
  const opt = new AdamW(model.variables, { lr: 1e-3, weightDecay: 1e-5 });
  const x = tf.randomNormal([batch, ...grid, cfg.inChannels], 0, 1, 'float32', 1);
  const y = tf.randomNormal([batch, ...grid, cfg.outChannels], 0, 1, 'float32', 2);
  const times: number[] = [];
  try {
    for (let i = 0; i < warmup + steps; i++) {
      const t0 = performance.now();
      trainStep(model, opt, x, y, mb);
      if (i >= warmup) times.push(performance.now() - t0);
    }
    let peak: number | undefined;
    if (profileMemory) peak = (await tf.profile(() => { trainStep(model, opt, x, y, mb); })).peakBytes;
    return { ms: median(times), microBatch: mb, peak };
  } finally {
    model.dispose();
    tf.dispose([x, y]);
  }
}

/** Same step with the batch split across worker threads, each with its own backend. */
async function timeDataParallel(cfg: LinoConfig, grid: number[], batch: number, steps: number, workers: number, backend: string, warmup = 3) {
  const per = Math.ceil(batch / workers);
  const mb = microBatchFor(cfg, grid, per);
  if (mb === undefined) return undefined;
  const model = new LinoOperator({ ...cfg, seed: 1 });
  const init = new Map([...model.variables].map(([k, v]) => [k, Float32Array.from(v.dataSync() as Float32Array)]));
  model.dispose();
  const dp = await DataParallelTrainer.create('lino', cfg, init, { workers, backend, microBatch: mb, adamw: { lr: 1e-3, weightDecay: 1e-5 } });
  const xs = [batch, ...grid, cfg.inChannels];
  const ys = [batch, ...grid, cfg.outChannels];
  const x = tf.tidy(() => tf.randomNormal(xs, 0, 1, 'float32', 1).dataSync() as Float32Array);
  const y = tf.tidy(() => tf.randomNormal(ys, 0, 1, 'float32', 2).dataSync() as Float32Array);
  const times: number[] = [];
  try {
    for (let i = 0; i < warmup + steps; i++) {
      const t0 = performance.now();
      await dp.step(x, xs, y, ys);
      if (i >= warmup) times.push(performance.now() - t0);
    }
    return { ms: median(times), microBatch: mb };
  } finally {
    await dp.close();
  }
}

function torchStatus(): string | undefined {
  if (!existsSync(PY)) return `${PY} not found`;
  const r = spawnSync(PY, ['-c', 'import torch'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `${PY} has no torch`;
}

function timeTorch(cfg: LinoConfig, grid: number[], batch: number, steps: number): { ms: number; threads: number } | undefined {
  const script = new URL('../tools/parity/bench_step.py', import.meta.url).pathname;
  let best: { ms: number; threads: number } | undefined;
  for (const threads of [1, 2]) {
    const r = spawnSync(PY, [script, '--config', JSON.stringify(cfg), '--grid', ...grid.map(String), '--batch', String(batch), '--threads', String(threads), '--steps', String(steps)], { encoding: 'utf8' });
    if (r.status !== 0) { console.log(`  PyTorch (${threads} thread(s)) failed: ${r.stderr.trim().split('\n').pop()}`); continue; }
    const ms = JSON.parse(r.stdout.trim().split('\n').pop()!).median_ms as number;
    if (!best || ms < best.ms) best = { ms, threads };
  }
  return best;
}

const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7) + ' ms';
const fmtMB = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

/** Least-squares slope of log t against log N. */
function exponent(points: { n: number; ms: number }[]): number {
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0, den = 0;
  xs.forEach((x, i) => { num += (x - mx) * (ys[i]! - my); den += (x - mx) ** 2; });
  return num / den;
}

export default async function bench(): Promise<void> {
  const report = await selectBackend();
  console.log(formatBackendReport(report));
  const noTorch = torchStatus();
  if (noTorch) console.log(`PyTorch reference skipped: ${noTorch}`);
  const workers = Math.min(availableParallelism(), 4);
  console.log(`\none training step (forward, backward, AdamW), median; ours: 1 thread in process, and data-parallel over ${workers} worker threads (one ${report.active} backend each)`);
  for (const c of QUICK ? CASES.slice(0, 1) : CASES) {
    const steps = QUICK ? 3 : c.steps;
    const ours = await timeOurs(c.config, c.grid, c.batch, steps);
    if (!ours) { console.log(`  ${c.name}: does not fit in ${fmtMB(MEM_BUDGET)} even one sample at a time`); continue; }
    const dp = workers > 1 ? await timeDataParallel(c.config, c.grid, c.batch, steps, workers, report.active) : undefined;
    const torch = noTorch ? undefined : timeTorch(c.config, c.grid, c.batch, steps);
    const mbNote = (mb: number, per: number) => (mb < per ? ` (micro-batches of ${mb})` : '');
    console.log(`  ${c.name}`);
    if (torch) console.log(`    PyTorch reference     ${fmtMs(torch.ms)}  (best of 1 and 2 threads: ${torch.threads})`);
    const ratio = (ms: number) => (torch ? `  ratio ours/PyTorch ${(ms / torch.ms).toFixed(2)}` : '');
    console.log(`    ours, 1 thread        ${fmtMs(ours.ms)}${ratio(ours.ms)}${mbNote(ours.microBatch, c.batch)}`);
    if (dp) console.log(`    ours, ${workers} workers       ${fmtMs(dp.ms)}${ratio(dp.ms)}${mbNote(dp.microBatch, Math.ceil(c.batch / workers))}`);
  }

  console.log('\nscaling in N (M=32, L=2, B=1): time and peak memory per training step');
  const sizes = QUICK ? [32, 48, 64] : [32, 48, 64, 96, 128];
  for (const scattering of ['efficient', 'full'] as const) {
    const cfg: LinoConfig = { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 2, scattering, components: ['reflection', 'refraction', 'scattering'] };
    const pts: { n: number; ms: number }[] = [];
    for (const s of sizes) {
      const N = s * s;
      const est = estimateLino(cfg, [s, s], 1);
      if (est.activationBytes > MEM_BUDGET) {
        console.log(`  ${scattering.padEnd(9)} N=${s}^2=${N}: skipped, estimated ${fmtMB(est.activationBytes)} > ${fmtMB(MEM_BUDGET)}`);
        continue;
      }
      const r = await timeOurs(cfg, [s, s], 1, N > 4096 ? 2 : 3, 1, true);
      if (!r) continue;
      pts.push({ n: N, ms: r.ms });
      console.log(`  ${scattering.padEnd(9)} N=${s}^2=${String(N).padEnd(6)} ${fmtMs(r.ms)}  peak ${fmtMB(r.peak!)} (estimate ${fmtMB(est.activationBytes)})`);
    }
    if (pts.length >= 2) console.log(`  ${scattering}: fitted exponent of time in N = ${exponent(pts).toFixed(2)}${scattering === 'efficient' ? ' (required <= 1.1)' : ''}`);
  }
}
