// The 'torch' backend (main/train/torch-run.ts) measured in one run, per model kind:
//   - epoch wall time of a PyTorch run driven by the workbench (data from its cache, initial
//     weights, spawn, metrics followed) against bare `python -m scaleout.train` on the same data
//     folder and config, in pairs run alternately (driven-bare, bare-driven, ...) so that a change
//     of the machine's load hits both sides alike; the overhead is the median of the pairs' ratios;
//   - the Python process's CPU time (user + sys, from a wrapper's getrusage of its child), driven
//     against bare: what driving costs Python itself, which the machine's load barely moves; and
//     the CPU time of this (the engine's) process while it drives a run;
//   - Python's own epoch time (epochSeconds of its records, epoch 1 left out), driven against bare:
//     the training loop with and without the workbench following it;
//   - time from the start call to the first step record (workbench: cold cache and warm cache;
//     bare: spawn to the first record in metrics.jsonl);
//   - torch cpu against the engine's wasm backend: median epoch seconds (epoch 1 left out: warm-up).
//   npm run bench torch        LINO_PYTHON (default /usr/bin/python3 here); LINO_BENCH_EPOCHS (default 4);
//                              LINO_BENCH_PAIRS (default 3); LINO_BENCH_WASM=0 leaves the wasm column out
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectBackend } from '../main/ops/backend';
import { RunStore } from '../main/runs/run-store';
import { parseRunConfig, trainRun } from '../main/train/runner';
import { TORCH_RUN_DIR, trainTorchRun, torchCommand } from '../main/train/torch-run';
import { cachedTorchProbe } from '../main/train/torch-probe';
import { scaleoutRoot } from '../main/train/scaleout-dir';

const EPOCHS = Number(process.env.LINO_BENCH_EPOCHS ?? 4);
const PAIRS = Number(process.env.LINO_BENCH_PAIRS ?? 3);
const WASM = process.env.LINO_BENCH_WASM !== '0';
const DATA = { kind: 'synthetic', grid: [32, 32], train: 32, val: 8, seed: 1 };
const NS = { kind: 'synthetic', task: 'autoregressive', grid: [32, 32], train: 16, val: 4, tIn: 3, tOut: 3, seed: 1 };
const CASES: [string, Record<string, unknown>][] = [
  ['LiNO 32², M16 L2', { model: { kind: 'lino', width: 16, depth: 2 }, data: DATA }],
  ['FNO 32², width 16, modes 8', { model: { kind: 'fno', width: 16, depth: 4, modes: 8 }, data: DATA }],
  ['DeepONet 32², 4x64, p 32', { model: { kind: 'deeponet', width: 64, depth: 4, basis: 32 }, data: DATA }],
  ['LiNO rollout 32², 3 -> 3, M8 L1', { model: { kind: 'lino', width: 8, depth: 1 }, data: NS }],
];

const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)]! : NaN; };
const s2 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)} s` : '—');
const epochSeconds = (dir: string) => readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; epochSeconds?: number }).filter((r) => r.type === 'epoch').map((r) => r.epochSeconds!);

/**
 * An interpreter that runs the real one as its child and appends the child's CPU time (getrusage of
 * its children: user + sys) to LINO_BENCH_CPU_OUT; the probe (-c) goes straight through. Driven and
 * bare runs both go through it, so its own start-up costs both sides alike.
 */
function cpuWrapper(dir: string, python: string): string {
  const path = join(dir, 'python3');
  writeFileSync(path, `#!${python}
import os, resource, subprocess, sys
if sys.argv[1:2] == ["-c"]:
    os.execv(${JSON.stringify(python)}, [${JSON.stringify(python)}] + sys.argv[1:])
code = subprocess.call([${JSON.stringify(python)}] + sys.argv[1:])
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
out = os.environ.get("LINO_BENCH_CPU_OUT")
if out:
    with open(out, "w") as f:
        f.write("%.4f\\n" % (ru.ru_utime + ru.ru_stime))
sys.exit(code)
`);
  chmodSync(path, 0o755);
  return path;
}

/** The CPU seconds the wrapper recorded for the run just ended. */
function childCpu(out: string): number {
  return Number(readFileSync(out, 'utf8').trim());
}

type Sample = { wall: number; first: number; cpu: number };

/** A workbench-driven PyTorch run: whole wall, time to the first step record, Python's CPU time and this process's. */
async function driven(store: RunStore, ws: string, cfg: Record<string, unknown>, id: string, python: string): Promise<Sample & { dir: string; driverCpu: number }> {
  const run = store.create(parseRunConfig({ ...cfg, backend: 'torch', torch: { device: 'cpu' } }), id);
  const out = join(ws, `${id}.cpu`);
  process.env.LINO_BENCH_CPU_OUT = out;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let first = NaN;
  const r = await trainTorchRun(run, { workspace: ws, owner: 'bench', python, onStep: () => { if (Number.isNaN(first)) first = performance.now() - t0; } });
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  if (r.state !== 'done') throw new Error(`${id}: ${r.state} ${r.reason ?? ''}`);
  return { wall, first: first / 1000, cpu: childCpu(out), dir: run.dir, driverCpu: (c.user + c.system) / 1e6 };
}

/** Bare `python -m scaleout.train` on the driven run's data folder and config, in a fresh run folder. */
function bare(python: string, from: string, dataDir: string, runDir: string, cpuOut: string): Promise<Sample> {
  const { cmd, args } = torchCommand({ python, runDir, dataDir, device: 'cpu', gpus: 1 });
  const a = args.filter((x, i) => x !== '--control' && args[i - 1] !== '--control').map((x) => (x.startsWith(join(runDir, TORCH_RUN_DIR)) ? x.replace(join(runDir, TORCH_RUN_DIR), join(from, TORCH_RUN_DIR)) : x));
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = NaN;
    const poll = setInterval(() => { if (Number.isNaN(first) && existsSync(join(runDir, 'metrics.jsonl')) && statSync(join(runDir, 'metrics.jsonl')).size > 0) first = performance.now() - t0; }, 5);
    const child = spawn(cmd, a, { cwd: scaleoutRoot(), env: { ...process.env, PYTHONPATH: scaleoutRoot(), LINO_BENCH_CPU_OUT: cpuOut }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`bare python exited ${code}: ${err.slice(-500)}`));
      else resolve({ wall: (performance.now() - t0) / 1000, first: first / 1000, cpu: childCpu(cpuOut) });
    });
  });
}

const range = (v: number[]) => `${Math.min(...v).toFixed(3)}–${Math.max(...v).toFixed(3)}`;

export default async function torchBench(): Promise<void> {
  process.env.LINO_PYTHON ??= '/usr/bin/python3';
  const probe = await cachedTorchProbe();
  if (!probe.ok) {
    console.log(`skipped: ${probe.problem}`);
    return;
  }
  const ws = mkdtempSync(join(tmpdir(), 'lino-bench-torch-'));
  const python = cpuWrapper(ws, probe.executable ?? probe.python);
  console.log(`PyTorch ${probe.torch} (${probe.cpuThreads} threads) at ${probe.python}; ${EPOCHS} epochs per run, batch 4, ${PAIRS} driven/bare pairs in alternating order; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const store = new RunStore(join(ws, 'runs'));
  const rows: string[] = [];
  try {
    for (const [name, c] of CASES) {
      const cfg = { ...c, epochs: EPOCHS, batchSize: 4, seed: 3 };
      const slug = name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
      await selectBackend('cpu');
      const cold = await driven(store, ws, cfg, `${slug}-cold`, python);
      const dataDir = readFileSync(join(cold.dir, 'events.log'), 'utf8').match(/data for PyTorch: (?:wrote|reusing) (\S+)/)![1]!;
      const pairs: { d: Awaited<ReturnType<typeof driven>>; b: Sample }[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const runBare = () => bare(python, cold.dir, dataDir, join(ws, 'bare', `${slug}-${i}`), join(ws, `${slug}-bare-${i}.cpu`));
        const runDriven = () => driven(store, ws, cfg, `${slug}-warm-${i}`, python);
        // alternate which goes first: a drift in the machine's load favours neither side
        if (i % 2 === 0) {
          const d = await runDriven();
          pairs.push({ d, b: await runBare() });
        } else {
          const b = await runBare();
          pairs.push({ d: await runDriven(), b });
        }
      }
      const wallRatios = pairs.map((p) => p.d.wall / p.b.wall);
      const cpuRatios = pairs.map((p) => p.d.cpu / p.b.cpu);
      const tEpoch = median(pairs.flatMap((p) => epochSeconds(p.d.dir).slice(1)));
      // Python's own epoch time (its records' epochSeconds, epoch 1 left out): the training loop, without start-up and data preparation
      const bEpoch = median(Array.from({ length: PAIRS }, (_, i) => epochSeconds(join(ws, 'bare', `${slug}-${i}`)).slice(1)).flat());
      let wasmCols = '— | — |';
      if (WASM) {
        await selectBackend('wasm');
        const wasmRun = store.create(parseRunConfig(cfg), `${slug}-wasm`);
        const w = await trainRun(wasmRun, { workspace: ws, owner: 'bench' });
        if (w.state !== 'done') throw new Error(`wasm ${name}: ${w.state}`);
        const wEpoch = median(epochSeconds(wasmRun.dir).slice(1));
        wasmCols = `${s2(wEpoch)} | ${(wEpoch / tEpoch).toFixed(2)} |`;
      }
      rows.push(
        `| ${name} | ${s2(median(pairs.map((p) => p.d.wall)) / EPOCHS)} | ${s2(median(pairs.map((p) => p.b.wall)) / EPOCHS)} | ${median(wallRatios).toFixed(3)} (${range(wallRatios)}) ` +
        `| ${s2(median(pairs.map((p) => p.d.cpu)))} | ${s2(median(pairs.map((p) => p.b.cpu)))} | ${median(cpuRatios).toFixed(3)} (${range(cpuRatios)}) | ${s2(median(pairs.map((p) => p.d.driverCpu)))} | ${s2(tEpoch)} / ${s2(bEpoch)} = ${(tEpoch / bEpoch).toFixed(3)} ` +
        `| ${s2(cold.first)} / ${s2(median(pairs.map((p) => p.d.first)))} | ${s2(median(pairs.map((p) => p.b.first)))} | ${s2(tEpoch)} | ${wasmCols}`,
      );
      console.log(rows[rows.length - 1]);
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('\n| case | driven wall/epoch | bare wall/epoch | driven / bare wall: median of pairs (range) | Python CPU driven | Python CPU bare | driven / bare CPU: median (range) | engine CPU while driving | Python epoch time, driven / bare (median of epochs 2..) | start to first step (cold / warm cache) | bare: to first record | torch epoch (median) | wasm epoch (median) | wasm / torch |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
}
