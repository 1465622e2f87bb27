// LiNO training-step bench: forward, backward, AdamW update, on the active backend, against the
// PyTorch reference (tools/parity/bench_step.py, best of 1 and 2 threads) in the same run.
// Then time and peak memory per step over grid sizes for efficient and full scattering, and the
// fitted exponent of time in N.   npm run bench model   (LINO_BENCH_QUICK=1 for a short run)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as tf from '../main/ops/tf';
import { selectBackend, formatBackendReport } from '../main/ops/backend';
import { LinoOperator } from '../main/model/lino/operator';
import { estimateLino } from '../main/model/lino/estimate';
import type { LinoConfig } from '../main/model/lino/config';
import { AdamW } from '../main/train/adamw';
import { makeTrainStep } from './train-step';
import { ParallelGradients } from '../main/train/parallel-grads';
import { shareGradients, type GradOptions } from '../main/train/batch-grads';
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

/** In-process trainer: 1 thread, micro-batched to fit the memory budget. */
async function oursInProcess(cfg: LinoConfig, grid: number[], batch: number) {
  const mb = microBatchFor(cfg, grid, batch);
  if (mb === undefined) return undefined;
  const model = new LinoOperator({ ...cfg, seed: 1 });
  const x = tf.randomNormal([batch, ...grid, cfg.inChannels], 0, 1, 'float32', 1);
  const y = tf.randomNormal([batch, ...grid, cfg.outChannels], 0, 1, 'float32', 2);
  const train = makeTrainStep(model, x, y, { microBatch: mb });
  return {
    microBatch: mb,
    step: async () => { await train.step(); },
    peakBytes: async () => (await tf.profile(async () => { await train.step(); })).peakBytes,
    close: async () => { train.dispose(); model.dispose(); tf.dispose([x, y]); },
  };
}

/** The same step with the batch split across worker threads, each with its own backend. */
async function oursDataParallel(cfg: LinoConfig, grid: number[], batch: number, workers: number, backend: string) {
  const per = Math.ceil(batch / workers);
  const mb = microBatchFor(cfg, grid, per);
  if (mb === undefined) return undefined;
  // the training runs' path (ParallelGradients): this thread computes the first share, workers - 1
  // helper threads the others at the same parameters; AdamW on this thread's model
  const model = new LinoOperator({ ...cfg, seed: 1 });
  const grad: GradOptions = { ar: null, microBatch: mb, checkpointBlocks: false, rolloutCheckpointing: false };
  const pool = await ParallelGradients.create(workers, 'lino', { ...cfg, seed: 1 }, backend, grad);
  const opt = new AdamW(model.variables, { lr: 1e-3, weightDecay: 1e-5 });
  const xs = [batch, ...grid, cfg.inChannels];
  const ys = [batch, ...grid, cfg.outChannels];
  const x = tf.randomNormal(xs, 0, 1, 'float32', 1);
  const y = tf.randomNormal(ys, 0, 1, 'float32', 2);
  const xd = x.dataSync() as Float32Array;
  const yd = y.dataSync() as Float32Array;
  const rowsOf = (d: Float32Array, shape: number[], r: readonly number[]) => {
    const per = d.length / batch;
    return { data: d.slice(r[0]! * per, (r[0]! + r.length) * per), shape: [r.length, ...shape.slice(1)] };
  };
  const rows = Array.from({ length: batch }, (_, i) => i);
  const step = async () => {
    const g = await pool.compute(model, rows, (r) => ({ x: rowsOf(xd, xs, r), y: rowsOf(yd, ys, r) }), (r) =>
      shareGradients(model, r.length, batch, (i, k) => ({ x: tf.slice(x, r[0]! + i, k), y: tf.slice(y, r[0]! + i, k) }), grad));
    await opt.apply(g.grads);
    tf.dispose([...g.grads.values()]);
  };
  return { microBatch: mb, step, close: async () => { await pool.close(); opt.dispose(); model.dispose(); tf.dispose([x, y]); } };
}

async function timeSteps(step: () => Promise<void>, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await step();
    into.push(performance.now() - t0);
  }
}

function torchStatus(): string | undefined {
  if (!existsSync(PY)) return `${PY} not found`;
  const r = spawnSync(PY, ['-c', 'import torch'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `${PY} has no torch`;
}

/** Step times of the PyTorch reference with `threads` threads (one process, after 1 warm-up step). */
function torchTimes(cfg: LinoConfig, grid: number[], batch: number, steps: number, threads: number): number[] {
  const script = new URL('../tools/parity/bench_step.py', import.meta.url).pathname;
  const r = spawnSync(PY, [script, '--config', JSON.stringify(cfg), '--grid', ...grid.map(String), '--batch', String(batch), '--threads', String(threads), '--steps', String(steps)], { encoding: 'utf8' });
  if (r.status !== 0) { console.log(`    PyTorch (${threads} thread(s)) failed: ${r.stderr.trim().split('\n').pop()}`); return []; }
  return JSON.parse(r.stdout.trim().split('\n').pop()!).times_ms as number[];
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
  const rounds = QUICK ? 1 : 3;
  console.log(`\none training step (forward, backward, AdamW): median over ${rounds} interleaved round(s) of ours (1 thread in process), ours (data-parallel, ${workers} worker threads with one ${report.active} backend each) and PyTorch (best of 1 and 2 threads); the machine is shared, so compare ratios`);
  for (const c of QUICK ? CASES.slice(0, 1) : CASES) {
    const per = QUICK ? 2 : Math.max(2, Math.ceil(c.steps / rounds));
    const one = await oursInProcess(c.config, c.grid, c.batch);
    if (!one) { console.log(`  ${c.name}: does not fit in ${fmtMB(MEM_BUDGET)} even one sample at a time`); continue; }
    const dp = workers > 1 ? await oursDataParallel(c.config, c.grid, c.batch, workers, report.active) : undefined;
    const tOne: number[] = [], tDp: number[] = [], tTorch: Record<number, number[]> = { 1: [], 2: [] };
    await timeSteps(one.step, 3, []); // warm-up (wasm code tiers up over the first calls)
    if (dp) await timeSteps(dp.step, 5, []); // fresh isolates in the workers: longer warm-up
    for (let r = 0; r < rounds; r++) {
      await timeSteps(one.step, per, tOne);
      if (dp) await timeSteps(dp.step, per, tDp);
      if (!noTorch) for (const th of [1, 2]) tTorch[th]!.push(...torchTimes(c.config, c.grid, c.batch, per, th));
    }
    await one.close();
    await dp?.close();
    const torchBest = noTorch ? undefined : ([1, 2].filter((th) => tTorch[th]!.length).map((th) => ({ th, ms: median(tTorch[th]!) })).sort((a, b) => a.ms - b.ms)[0]);
    const ratio = (ms: number) => (torchBest ? `  ratio ours/PyTorch ${(ms / torchBest.ms).toFixed(2)}` : '');
    const mbNote = (mb: number, n: number) => (mb < n ? ` (micro-batches of ${mb})` : '');
    console.log(`  ${c.name}`);
    if (torchBest) console.log(`    PyTorch reference     ${fmtMs(torchBest.ms)}  (${torchBest.th} thread(s); 1 thread ${fmtMs(median(tTorch[1]!))}, 2 threads ${fmtMs(median(tTorch[2]!))})`);
    console.log(`    ours, 1 thread        ${fmtMs(median(tOne))}${ratio(median(tOne))}${mbNote(one.microBatch, c.batch)}`);
    if (dp) console.log(`    ours, ${workers} workers       ${fmtMs(median(tDp))}${ratio(median(tDp))}${mbNote(dp.microBatch, Math.ceil(c.batch / workers))}`);
  }

  console.log('\nscaling in N (M=32, L=2, B=1): time and peak memory per training step');
  const sizes = QUICK ? [32, 48, 64] : [32, 48, 64, 96, 128];
  for (const scattering of ['efficient', 'full'] as const) {
    const cfg: LinoConfig = { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 2, scattering, components: ['reflection', 'refraction', 'scattering'] };
    const pts: { n: number; ms: number }[] = [];
    const ptsMin: { n: number; ms: number }[] = [];
    for (const s of sizes) {
      const N = s * s;
      const est = estimateLino(cfg, [s, s], 1);
      if (est.activationBytes > MEM_BUDGET) {
        console.log(`  ${scattering.padEnd(9)} N=${s}^2=${N}: skipped, estimated ${fmtMB(est.activationBytes)} > ${fmtMB(MEM_BUDGET)}`);
        continue;
      }
      const one = await oursInProcess(cfg, [s, s], 1);
      if (!one) continue;
      const times: number[] = [];
      await timeSteps(one.step, 1, []);
      await timeSteps(one.step, N > 4096 ? 2 : 3, times);
      const peak = await one.peakBytes();
      await one.close();
      const r = { ms: median(times), min: Math.min(...times), peak };
      pts.push({ n: N, ms: r.ms });
      ptsMin.push({ n: N, ms: r.min });
      console.log(`  ${scattering.padEnd(9)} N=${s}^2=${String(N).padEnd(6)} ${fmtMs(r.ms)} (fastest ${fmtMs(r.min).trim()})  peak ${fmtMB(r.peak)} (estimate ${fmtMB(est.activationBytes)})`);
    }
    if (pts.length >= 2) console.log(`  ${scattering}: fitted exponent of time in N = ${exponent(pts).toFixed(2)} on medians, ${exponent(ptsMin).toFixed(2)} on fastest steps${scattering === 'efficient' ? ' (required <= 1.1)' : ''}`);
  }
}
