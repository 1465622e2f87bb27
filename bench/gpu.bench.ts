// The GPU bench in-process, for a machine with Node, a hardware WebGPU adapter and
// PyTorch with CUDA: the five cases of bench/gpu/cases.ts as webgpu / PyTorch-CUDA ratios, with
// kernels per step. Without a hardware adapter or CUDA it says why and stops (a machine without
// Node uses bench/gpu/run-gpu-bench.sh instead).   npm run bench gpu
import { spawnSync } from 'node:child_process';
import * as tf from '../main/ops/tf';
import { formatAdapter, importWebgpuBackend } from '../main/ops/webgpu-env';
import { createModel } from '../main/model/registry';
import { makeTrainStep } from './train-step';
import { gpuBenchCases } from './gpu/cases';

const PY = process.env.PYTHON ?? 'python3';
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

export default async function bench(): Promise<void> {
  const adapter = await importWebgpuBackend();
  if (!adapter || adapter.fallback) {
    console.log(`skipped: no hardware WebGPU adapter here (${adapter ? formatAdapter(adapter) : 'none'}); no GPU was available`);
    return;
  }
  const cuda = spawnSync(PY, ['-c', 'import torch; assert torch.cuda.is_available()'], { encoding: 'utf8' });
  if (cuda.status !== 0) {
    console.log(`skipped: ${PY} has no PyTorch with CUDA (PYTHON=... picks another)`);
    return;
  }
  await tf.setBackend('webgpu');
  console.log(`webgpu on ${formatAdapter(adapter)} against PyTorch CUDA; one training step, B4, median of 10 after 3 warm-up steps`);
  const { warmup, steps, cases } = gpuBenchCases(false);
  const script = new URL('../tools/parity/bench_step.py', import.meta.url).pathname;
  for (const c of cases) {
    const model = createModel(c.kind ?? 'lino', { ...c.config, seed: 1 });
    const x = tf.randomNormal([c.batch, ...c.grid, c.config.inChannels], 0, 1, 'float32', 1);
    const y = tf.randomNormal([c.batch, ...c.grid, c.config.outChannels], 0, 1, 'float32', 2);
    const s = makeTrainStep(model, x, y);
    for (let i = 0; i < warmup; i++) await s.step();
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      await s.step();
      times.push(performance.now() - t0);
    }
    const kernels = (await tf.profile(async () => { await s.step(); })).kernels.length;
    s.dispose();
    model.dispose();
    tf.dispose([x, y]);
    const r = spawnSync(PY, [script, '--kind', c.kind ?? 'lino', '--config', JSON.stringify(c.config), '--grid', ...c.grid.map(String), '--batch', String(c.batch), '--device', 'cuda', '--warmup', String(warmup), '--steps', String(steps)], { encoding: 'utf8' });
    if (r.status !== 0) { console.log(`  ${c.name}: PyTorch failed: ${r.stderr.trim().split('\n').pop()}`); continue; }
    const pt = JSON.parse(r.stdout.trim().split('\n').pop()!).median_ms as number;
    const ms = median(times);
    console.log(`  ${c.name.padEnd(42)} PyTorch CUDA ${pt.toFixed(1).padStart(7)} ms  webgpu ${ms.toFixed(1).padStart(8)} ms  ratio ${(ms / pt).toFixed(1)}  ${kernels} kernels per step`);
  }
}
