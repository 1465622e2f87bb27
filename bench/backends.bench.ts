// ms per training step on every backend available here (cpu, wasm, webgpu when an adapter exists,
// software ones included and marked) against PyTorch CPU in the same run, for Darcy 32² M32 L4 B4
// efficient; on wasm with the host AdamW (what wasm trains with) and with the device (tensor-op)
// AdamW.   npm run bench backends   (LINO_BENCH_QUICK=1: fewer steps)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as tf from '../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { selectBackend } from '../main/ops/backend';
import { formatAdapter } from '../main/ops/webgpu-env';
import { LinoOperator } from '../main/model/lino/operator';
import type { LinoConfig } from '../main/model/lino/config';
import { makeTrainStep } from './train-step';

const PY = '/usr/bin/python3';
const QUICK = !!process.env.LINO_BENCH_QUICK;
const CFG: LinoConfig = { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] };
const GRID = [32, 32];
const B = 4;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const fmt = (ms: number) => `${(ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7)} ms`;

function torchMs(steps: number): { ms: number; threads: number } | string {
  if (!existsSync(PY)) return `${PY} not found`;
  const script = new URL('../tools/parity/bench_step.py', import.meta.url).pathname;
  let best: { ms: number; threads: number } | undefined;
  for (const threads of [1, 2]) {
    const r = spawnSync(PY, [script, '--config', JSON.stringify(CFG), '--grid', ...GRID.map(String), '--batch', String(B), '--threads', String(threads), '--steps', String(steps)], { encoding: 'utf8' });
    if (r.status !== 0) return `PyTorch failed: ${r.stderr.trim().split('\n').pop()}`;
    const ms = JSON.parse(r.stdout.trim().split('\n').pop()!).median_ms as number;
    if (!best || ms < best.ms) best = { ms, threads };
  }
  return best!;
}

/** Median step time of each variant, steps interleaved after one warm-up step each (the first steps tier up wasm code). */
async function oursMs(steps: number, variants: (boolean | undefined)[]): Promise<{ ms: number; device: boolean }[]> {
  const runs = variants.map((device) => {
    const model = new LinoOperator({ ...CFG, seed: 1 });
    const x = tf.randomNormal([B, ...GRID, CFG.inChannels], 0, 1, 'float32', 1);
    const y = tf.randomNormal([B, ...GRID, CFG.outChannels], 0, 1, 'float32', 2);
    return { model, x, y, s: makeTrainStep(model, x, y, device === undefined ? {} : { device }), times: [] as number[] };
  });
  try {
    for (const r of runs) await r.s.step();
    for (let i = 0; i < steps; i++) {
      for (const r of runs) {
        const t0 = performance.now();
        await r.s.step();
        r.times.push(performance.now() - t0);
      }
    }
    return runs.map((r) => ({ ms: median(r.times), device: r.s.opt.device }));
  } finally {
    for (const r of runs) {
      r.s.dispose();
      r.model.dispose();
      tf.dispose([r.x, r.y]);
    }
  }
}

export default async function bench(): Promise<void> {
  const steps = QUICK ? 2 : 5;
  console.log(`Darcy 32² M32 L4 B4 efficient: one training step (forward, backward, clip, AdamW), median of ${steps} after 1 warm-up`);
  const torch = torchMs(steps);
  if (typeof torch === 'string') console.log(`  PyTorch CPU reference skipped: ${torch}`);
  else console.log(`  PyTorch CPU           ${fmt(torch.ms)}  (${torch.threads} thread(s), best of 1 and 2)`);
  const ratio = (ms: number) => (typeof torch === 'string' ? '' : `  ratio ours/PyTorch CPU ${(ms / torch.ms).toFixed(2)}`);
  for (const name of ['cpu', 'wasm', 'webgpu'] as const) {
    let label: string = name;
    try {
      const r = await selectBackend(name);
      if (r.adapter) label = `webgpu on ${formatAdapter(r.adapter)}`;
      // SwiftShader runs every kernel on the CPU: ~10 ms each here, minutes per step of this model
      if (r.adapter?.fallback && !process.env.LINO_BENCH_SOFTWARE) {
        console.log(`  ${label}: skipped, a software adapter (minutes per step here; LINO_BENCH_SOFTWARE=1 times it). No hardware GPU adapter on this machine.`);
        continue;
      }
    } catch (e) {
      console.log(`  ${name.padEnd(20)}  skipped: ${(e as Error).message}`);
      continue;
    }
    // the plain-JS cpu backend and a software GPU are slow: fewer steps there
    const n = name === 'wasm' ? steps : Math.min(steps, 2);
    if (name === 'wasm') {
      const [host, dev] = await oursMs(n, [false, true]);
      console.log(`  wasm, host AdamW      ${fmt(host!.ms)}${ratio(host!.ms)}`);
      console.log(`  wasm, device AdamW    ${fmt(dev!.ms)}${ratio(dev!.ms)}   (host/device ${(host!.ms / dev!.ms).toFixed(2)}; the optimizer alone: npm run bench optimizer-path)`);
      continue;
    }
    const [r] = await oursMs(n, [undefined]);
    console.log(`  ${label.padEnd(20)}  ${fmt(r!.ms)}${ratio(r!.ms)}  (${r!.device ? 'device' : 'host'} AdamW)`);
  }
  await tf.setBackend('cpu');
}
