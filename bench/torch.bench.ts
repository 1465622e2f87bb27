// The 'torch' backend (main/train/torch-run.ts) measured in one run, per model kind:
//   - epoch wall time of a PyTorch run driven by the workbench (data from its cache, initial
//     weights, spawn, metrics followed) against bare `python -m scaleout.train` on the same data
//     folder and config: whole-run wall / epochs for both, and the overhead ratio;
//   - time from the start call to the first step record (workbench: cold cache and warm cache;
//     bare: spawn to the first record in metrics.jsonl);
//   - torch cpu against the engine's wasm backend: median epoch seconds (epoch 1 left out: warm-up).
//   npm run bench torch        LINO_PYTHON (default /usr/bin/python3 here); LINO_BENCH_EPOCHS (default 4)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectBackend } from '../main/ops/backend';
import { RunStore } from '../main/runs/run-store';
import { parseRunConfig, trainRun } from '../main/train/runner';
import { TORCH_RUN_DIR, trainTorchRun, torchCommand } from '../main/train/torch-run';
import { cachedTorchProbe } from '../main/train/torch-probe';
import { scaleoutRoot } from '../main/train/scaleout-dir';

const EPOCHS = Number(process.env.LINO_BENCH_EPOCHS ?? 4);
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

/** A workbench-driven PyTorch run: whole wall and time to the first step record. */
async function driven(store: RunStore, ws: string, cfg: Record<string, unknown>, id: string): Promise<{ wall: number; first: number; dir: string }> {
  const run = store.create(parseRunConfig({ ...cfg, backend: 'torch', torch: { device: 'cpu' } }), id);
  const t0 = performance.now();
  let first = NaN;
  const out = await trainTorchRun(run, { workspace: ws, owner: 'bench', onStep: () => { if (Number.isNaN(first)) first = performance.now() - t0; } });
  if (out.state !== 'done') throw new Error(`${id}: ${out.state} ${out.reason ?? ''}`);
  return { wall: (performance.now() - t0) / 1000, first: first / 1000, dir: run.dir };
}

/** Bare `python -m scaleout.train` on the driven run's data folder and config, in a fresh run folder. */
function bare(python: string, from: string, dataDir: string, runDir: string): Promise<{ wall: number; first: number }> {
  const { cmd, args } = torchCommand({ python, runDir, dataDir, device: 'cpu', gpus: 1 });
  const a = args.filter((x, i) => x !== '--control' && args[i - 1] !== '--control').map((x) => (x.startsWith(join(runDir, TORCH_RUN_DIR)) ? x.replace(join(runDir, TORCH_RUN_DIR), join(from, TORCH_RUN_DIR)) : x));
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = NaN;
    const poll = setInterval(() => { if (Number.isNaN(first) && existsSync(join(runDir, 'metrics.jsonl')) && statSync(join(runDir, 'metrics.jsonl')).size > 0) first = performance.now() - t0; }, 5);
    const child = spawn(cmd, a, { cwd: scaleoutRoot(), env: { ...process.env, PYTHONPATH: scaleoutRoot() }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`bare python exited ${code}: ${err.slice(-500)}`));
      else resolve({ wall: (performance.now() - t0) / 1000, first: first / 1000 });
    });
  });
}

export default async function torchBench(): Promise<void> {
  process.env.LINO_PYTHON ??= '/usr/bin/python3';
  const probe = await cachedTorchProbe();
  if (!probe.ok) {
    console.log(`skipped: ${probe.problem}`);
    return;
  }
  console.log(`PyTorch ${probe.torch} (${probe.cpuThreads} threads) at ${probe.python}; ${EPOCHS} epochs per run, batch 4`);
  const ws = mkdtempSync(join(tmpdir(), 'lino-bench-torch-'));
  const store = new RunStore(join(ws, 'runs'));
  const rows: string[] = [];
  try {
    for (const [name, c] of CASES) {
      const cfg = { ...c, epochs: EPOCHS, batchSize: 4, seed: 3 };
      const slug = name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
      await selectBackend('cpu');
      const cold = await driven(store, ws, cfg, `${slug}-cold`);
      const warm = await driven(store, ws, cfg, `${slug}-warm`);
      const dataDir = readFileSync(join(warm.dir, 'events.log'), 'utf8').match(/data for PyTorch: reusing (\S+)/)![1]!;
      const bareDir = join(ws, 'bare', slug);
      const b = await bare(probe.python, warm.dir, dataDir, bareDir);
      await selectBackend('wasm');
      const wasmRun = store.create(parseRunConfig(cfg), `${slug}-wasm`);
      const w = await trainRun(wasmRun, { workspace: ws, owner: 'bench' });
      if (w.state !== 'done') throw new Error(`wasm ${name}: ${w.state}`);
      const tEpoch = median(epochSeconds(warm.dir).slice(1));
      const wEpoch = median(epochSeconds(wasmRun.dir).slice(1));
      rows.push(`| ${name} | ${s2(warm.wall / EPOCHS)} | ${s2(b.wall / EPOCHS)} | ${(warm.wall / b.wall).toFixed(3)} | ${s2(cold.first)} / ${s2(warm.first)} | ${s2(b.first)} | ${s2(tEpoch)} | ${s2(wEpoch)} | ${(wEpoch / tEpoch).toFixed(2)} |`);
      console.log(rows[rows.length - 1]);
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  console.log('\n| case | driven wall/epoch | bare wall/epoch | driven / bare | start to first step (cold / warm cache) | bare: to first record | torch epoch (median) | wasm epoch (median) | wasm / torch |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
}
