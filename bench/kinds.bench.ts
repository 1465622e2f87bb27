// Every model kind beside its PyTorch reference on CPU, in the same run: one training step
// (forward, backward, clip, AdamW) on wasm against tools/parity/bench_step.py --kind (best of 1
// and 2 threads), B4, for LiNO (Darcy 32² M32 L4, the backends bench's case), FNO at the GPU bench's
// three sizes and DeepONet (the paper's Burgers baseline, and Darcy 29²). Rounds alternate
// PyTorch and ours so that load from other processes hits both; medians over rounds, ratios; and
// the best single step of each side (on a shared, loaded machine the least disturbed estimate), and
// the least CPU time of a step, PyTorch on 1 thread against ours (all our threads): what a loaded
// machine disturbs least, since time spent waiting for a core is not counted. Ours is the engine's
// wasm backend as training starts it (preferTrainingThreads: the threaded build on 2 threads where
// there are 2 cores; LINO_WASM_THREADS=N to choose). Both sides are warmed up first: PyTorch with
// WARMUP_STEPS steps in each process, ours (one process for every round) for WARMUP_MS at the start,
// since V8 compiles the engine's hot code over its first hundred or so steps, and WARMUP_STEPS steps
// at each round.
//   npm run bench kinds      LINO_BENCH_QUICK=1: one round, fewer steps
//   LINO_BENCH_PROFILE=1: also where our step's time goes (tf.profile, kernels ranked by time);
//   LINO_BENCH_PROFILE=only: only that, no timing against PyTorch
//   LINO_BENCH_KINDS=fno: only the cases whose name contains it
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import * as tf from '../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { preferTrainingThreads, selectBackend } from '../main/ops/backend';
import { createModel } from '../main/model/registry';
import { makeTrainStep } from './train-step';

const PY = '/usr/bin/python3';
const QUICK = !!process.env.LINO_BENCH_QUICK;
const B = 4;
const WARMUP_STEPS = 10;
const WARMUP_MS = 3000;

interface KindCase { name: string; kind: string; config: Record<string, unknown>; grid: number[] }

const darcy = (grid: number[]) => ({ dims: 2, inChannels: 3, outChannels: 1, grid });
export const KIND_CASES: KindCase[] = [
  { name: 'LiNO Darcy 32², M32 L4, efficient', kind: 'lino', grid: [32, 32], config: { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] } },
  { name: 'FNO Darcy 29², width 16, modes 8', kind: 'fno', grid: [29, 29], config: { dims: 2, inChannels: 3, outChannels: 1, width: 16, modes: 8 } },
  { name: 'FNO Darcy 85², width 32, modes 12 (paper)', kind: 'fno', grid: [85, 85], config: { dims: 2, inChannels: 3, outChannels: 1, width: 32, modes: 12 } },
  { name: 'FNO Burgers 256, width 64, modes 16', kind: 'fno', grid: [256], config: { dims: 1, inChannels: 2, outChannels: 1, width: 64, modes: 16 } },
  { name: 'DeepONet Burgers 256, 8x128, p 128 (paper)', kind: 'deeponet', grid: [256], config: { dims: 1, inChannels: 2, outChannels: 1, grid: [256], width: 128, layers: 8, basis: 128 } },
  { name: 'DeepONet Darcy 29², 8x128, p 128', kind: 'deeponet', grid: [29, 29], config: { ...darcy([29, 29]), width: 128, layers: 8, basis: 128 } },
];

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const fmt = (ms: number) => `${(ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7)} ms`;

/**
 * PyTorch's median step, best of 1 and 2 threads; a string says why it was skipped. `best1` gets
 * its fastest single step, `cpu1` its least CPU time of a step on 1 thread.
 */
function torchMs(c: KindCase, steps: number, best1: number[], cpu1: number[]): number | string {
  if (!existsSync(PY)) return `${PY} not found`;
  const script = new URL('../tools/parity/bench_step.py', import.meta.url).pathname;
  let best = Infinity;
  for (const threads of [1, 2]) {
    const r = spawnSync(PY, [script, '--kind', c.kind, '--config', JSON.stringify(c.config), '--grid', ...c.grid.map(String), '--batch', String(B), '--threads', String(threads), '--steps', String(steps), '--warmup', String(WARMUP_STEPS)], { encoding: 'utf8' });
    if (r.status !== 0) return `PyTorch failed: ${r.stderr.trim().split('\n').pop()}`;
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { median_ms: number; times_ms: number[]; cpu_ms: number[] };
    best = Math.min(best, out.median_ms);
    best1.push(Math.min(...out.times_ms));
    if (threads === 1) cpu1.push(Math.min(...out.cpu_ms));
  }
  return best;
}

type Step = { step: () => Promise<number>; close: () => void };

function ourStep(c: KindCase): Step {
  const model = createModel(c.kind, { ...c.config, seed: 1 });
  const x = tf.randomNormal([B, ...c.grid, c.config.inChannels as number], 0, 1, 'float32', 1);
  const y = tf.randomNormal([B, ...c.grid, c.config.outChannels as number], 0, 1, 'float32', 2);
  const s = makeTrainStep(model, x, y);
  return { step: s.step, close: () => { s.dispose(); model.dispose(); tf.dispose([x, y]); } };
}

async function oursMs(s: Step, steps: number, best1: number[], cpu1: number[]): Promise<number> {
  // the round's own warm-up, as PyTorch's new process has: after PyTorch held both cores, a step
  // of ours is measured 1.2-1.6x slower for several steps (both builds; bench/kinds notes in docs/model.md)
  for (let i = 0; i < WARMUP_STEPS; i++) await s.step();
  const times: number[] = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await s.step();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu1.push((c.user + c.system) / 1000);
  }
  best1.push(Math.min(...times));
  return median(times);
}

const cpuMs = (c0: NodeJS.CpuUsage) => { const d = process.cpuUsage(c0); return (d.user + d.system) / 1000; };

/**
 * Where one step's time goes, from PROFILE_STEPS profiled steps, in CPU time (the machine is
 * shared: wall time is mostly waiting for a core): kernels ranked by time (each kernel's least
 * total over the steps), the step's least CPU time, and the rest of it outside kernels (tape,
 * dispose, the JS around the kernels, the host AdamW: the step's least unprofiled CPU time less
 * the kernels'). tf.profile times a kernel with the
 * backend's time(), wall clock on wasm: here it is swapped for the process's CPU time (getrusage,
 * ~2 us a kernel, counted in the step). Scopes (custom-gradient wrappers) are left out: they nest kernels.
 */
async function printProfile(s: Step): Promise<void> {
  const PROFILE_STEPS = 5;
  const backend = tf.backend() as unknown as { time(f: () => void): Promise<{ kernelMs: number }> };
  const wallTime = backend.time;
  backend.time = async (f) => { const c0 = process.cpuUsage(); f(); return { kernelMs: cpuMs(c0) }; };
  const best = new Map<string, { ms: number; n: number }>();
  let step = Infinity; // unprofiled: tf.profile's own bookkeeping is not the step's
  for (let i = 0; i < PROFILE_STEPS; i++) {
    const c0 = process.cpuUsage();
    await s.step();
    step = Math.min(step, cpuMs(c0));
  }
  let kernels = 0;
  let outputs = 0;
  try {
    for (let i = 0; i < PROFILE_STEPS; i++) {
      const p = await tf.profile(async () => { await s.step(); });
      const by = new Map<string, { ms: number; n: number }>();
      [kernels, outputs] = [0, 0];
      for (const k of p.kernels) {
        if (k.name === 'unnamed scope' || k.name.endsWith('__op')) continue;
        kernels++;
        outputs += k.outputShapes.length;
        const key = `${k.name} ${JSON.stringify(k.inputShapes)}`;
        const e = by.get(key) ?? { ms: 0, n: 0 };
        by.set(key, { ms: e.ms + (k.kernelTimeMs as number), n: e.n + 1 });
      }
      for (const [k, v] of by) if (!best.has(k) || best.get(k)!.ms > v.ms) best.set(k, v);
    }
  } finally {
    backend.time = wallTime;
  }
  const total = [...best.values()].reduce((a, v) => a + v.ms, 0);
  console.log(`    profile, CPU time (least of ${PROFILE_STEPS} profiled steps): ${kernels} kernels, ${outputs} tensors made by them; step ${step.toFixed(1)} ms (least of ${PROFILE_STEPS} unprofiled), in kernels ${total.toFixed(1)} ms, outside kernels ${(step - total).toFixed(1)} ms; top 12:`);
  for (const [k, v] of [...best].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`    ${v.ms.toFixed(1).padStart(8)} ms ${(100 * v.ms / total).toFixed(0).padStart(3)}% ${String(v.n).padStart(4)}x  ${k}`);
}

export default async function bench(): Promise<void> {
  const rounds = QUICK ? 1 : 3;
  const steps = QUICK ? 2 : 3;
  const only = process.env.LINO_BENCH_KINDS;
  preferTrainingThreads();
  const backend = await selectBackend('wasm');
  console.log(`ours: ${backend.attempts.at(-1)!.reason}; our CPU time counts every thread of the pool`);
  console.log(`one training step, B4, wasm vs PyTorch CPU (best of 1 and 2 threads); ${rounds} round(s) of ${steps} steps each after warming up (PyTorch ${WARMUP_STEPS} steps a process, ours ${WARMUP_STEPS} steps and ${WARMUP_MS / 1000} s), PyTorch and ours alternating; medians over rounds`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  console.log('| case | PyTorch CPU | wasm | wasm / PyTorch | best step PyTorch / wasm | best-step ratio | least CPU time PyTorch 1 thread / wasm | CPU ratio |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const c of KIND_CASES) {
    if (only && !c.name.toLowerCase().includes(only.toLowerCase())) continue;
    const s = ourStep(c);
    try {
      const w0 = performance.now();
      for (let i = 0; i < WARMUP_STEPS || performance.now() - w0 < WARMUP_MS; i++) await s.step();
      if (process.env.LINO_BENCH_PROFILE === 'only') {
        console.log(`| ${c.name} | | | | | | | |`);
        await printProfile(s);
        continue;
      }
      const torch: number[] = [];
      const ours: number[] = [];
      const torch1: number[] = [];
      const ours1: number[] = [];
      const torchCpu: number[] = [];
      const oursCpu: number[] = [];
      let skipped = '';
      for (let r = 0; r < rounds; r++) {
        const t = torchMs(c, steps, torch1, torchCpu);
        if (typeof t === 'string') skipped = t;
        else torch.push(t);
        ours.push(await oursMs(s, steps, ours1, oursCpu));
      }
      const t = torch.length ? median(torch) : NaN;
      const o = median(ours);
      const [t1, o1] = [Math.min(...torch1), Math.min(...ours1)];
      const [tc, oc] = [Math.min(...torchCpu), Math.min(...oursCpu)];
      const bestCols = skipped ? ' | | | ' : `${fmt(t1)} / ${fmt(o1)} | ${(o1 / t1).toFixed(2)} | ${fmt(tc)} / ${fmt(oc)} | ${(oc / tc).toFixed(2)}`;
      console.log(`| ${c.name} | ${skipped ? `skipped: ${skipped}` : fmt(t)} | ${fmt(o)} | ${skipped ? '' : (o / t).toFixed(2)} | ${bestCols} |`);
      if (process.env.LINO_BENCH_PROFILE) await printProfile(s);
    } finally {
      s.close();
    }
  }
  await tf.setBackend('cpu');
}
