// Kernels launched per forward, per forward+backward and per training step of LiNO, per
// backend (cpu, wasm, and webgpu when it can be registered: a hardware adapter, or SwiftShader
// here), beside PyTorch's top-level aten op count for the same model (tools/parity/count_ops.py)
// in the same run. A "kernel" is one registered-kernel dispatch through tfjs's engine (what
// tf.profile lists, without customGrad scopes); on webgpu also the GPU programs actually run.
//   npm run bench kernels
//   LINO_BENCH_CASE=Darcy LINO_BENCH_BACKENDS=cpu,webgpu npm run bench kernels   (one case, some backends)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as tf from '../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { LinoOperator } from '../main/model/lino/operator';
import type { LinoConfig } from '../main/model/lino/config';
import { countKernels, type KernelCounts } from '../main/ops/tfjs-internals/count-kernels';
import { makeTrainStep } from './train-step';
import { webgpuUnavailable } from '../test/helpers/webgpu-env';
import { formatProgramTable, hasGpuTimer, profilePrograms, type ProgramProfile } from './program-profile';

const PY = '/usr/bin/python3';
const COMPONENTS: LinoConfig['components'] = ['reflection', 'refraction', 'scattering'];
const CASES: { name: string; config: LinoConfig; grid: number[]; batch: number }[] = [
  { name: 'Darcy 32^2, M32 L4 B4, efficient', config: { dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: 'efficient', components: COMPONENTS }, grid: [32, 32], batch: 4 },
  { name: 'Burgers 256, M32 L4 B4, full', config: { dims: 1, inChannels: 2, outChannels: 1, width: 32, depth: 4, scattering: 'full', components: COMPONENTS }, grid: [256], batch: 4 },
];

type Counts = KernelCounts;

const top = (m: Counts, n = 8) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${k} ${v}`).join(', ');

type TorchCounts = { forward: number; forward_backward: number } | undefined;

async function countBackend(backend: string, c: (typeof CASES)[number], torch: TorchCounts): Promise<void> {
  const model = new LinoOperator({ ...c.config, seed: 1 });
  const x = tf.randomNormal([c.batch, ...c.grid, c.config.inChannels], 0, 1, 'float32', 1);
  const y = tf.randomNormal([c.batch, ...c.grid, c.config.outChannels], 0, 1, 'float32', 2);
  const vars = [...model.variables.values()];
  const fwd = () => tf.dispose(model.forward(x).y);
  const fwdBwd = () => {
    const { value, grads } = tf.variableGrads(() => tf.mean(tf.squaredDifference(model.forward(x).y, y)) as tf.Scalar, vars);
    tf.dispose([value, ...Object.values(grads)]);
  };
  try {
    fwdBwd(); // warm-up: grid constants are built on the first call
    const f = await countKernels(fwd);
    const fb = await countKernels(fwdBwd);
    const prog = (r: { programs?: number }) => (r.programs === undefined ? '' : ` (${r.programs} GPU programs)`);
    const ratio = (n: number, ref?: number) => (ref ? ` = ${(n / ref).toFixed(2)}x PyTorch` : '');
    console.log(`  ${backend.padEnd(6)} forward ${String(f.total).padStart(5)}${ratio(f.total, torch?.forward)}${prog(f)}: ${top(f.byName)}`);
    console.log(`  ${backend.padEnd(6)} fwd+bwd ${String(fb.total).padStart(5)}${ratio(fb.total, torch?.forward_backward)}${prog(fb)}: ${top(fb.byName)}`);
    let step = '';
    let programTable: string[] = [];
    try {
      // the Trainer's step (clip, AdamW on the device on GPU backends, on the host on cpu/wasm)
      const t = makeTrainStep(model, x, y);
      try {
        await t.step();
        let p: ProgramProfile | undefined;
        const s = await countKernels(async () => { p = backend === 'webgpu' ? await profilePrograms(() => t.step()) : (await t.step(), undefined); });
        step = `${s.total}${prog(s)} (${s.total + s.scopes} with customGrad scopes, as tf.profile lists): ${top(s.byName)}`;
        if (p) programTable = await webgpuProgramTable(p, fwdBwd);
      } finally {
        t.dispose();
      }
    } catch (e) {
      step = `not measured (${(e as Error).message.split('\n')[0]})`;
    }
    console.log(`  ${backend.padEnd(6)} step    ${step.padStart(5)}`);
    for (const l of programTable) console.log(`  ${l}`);
  } finally {
    model.dispose();
    tf.dispose([x, y]);
  }
}

/** The step's GPU programs by name (and GPU time of a timed forward + backward where the adapter has timestamp-query). */
async function webgpuProgramTable(step: ProgramProfile, fwdBwd: () => void): Promise<string[]> {
  const timed = hasGpuTimer() ? await profilePrograms(fwdBwd, { gpuTime: true }) : null;
  const gpu = timed?.gpuMs ?? null;
  return [
    `GPU programs per step ${step.programs}, step wall ${step.wallMs.toFixed(0)} ms, host encode ${step.hostMs.toFixed(0)} ms, GPU->CPU reads ${step.reads}; ` +
      (gpu === null ? 'GPU time n/a (no timestamp-query: a software adapter such as SwiftShader; its times mean nothing)' : `fwd+bwd GPU ${gpu.toFixed(1)} ms (timestamp queries)`),
    ...formatProgramTable(step, timed, step.wallMs, 40),
  ];
}

function torchCounts(c: (typeof CASES)[number]): { line: string; counts?: TorchCounts } {
  if (!existsSync(PY)) return { line: `skipped: ${PY} not found` };
  const script = new URL('../tools/parity/count_ops.py', import.meta.url).pathname;
  const r = spawnSync(PY, [script, '--config', JSON.stringify(c.config), '--grid', ...c.grid.map(String), '--batch', String(c.batch)], { encoding: 'utf8' });
  if (r.status !== 0) return { line: `skipped: ${r.stderr.trim().split('\n').pop()}` };
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!) as { forward: number; forward_backward: number; by_name: Record<string, number>; torch: string };
  const names = Object.entries(j.by_name).slice(0, 6).map(([k, v]) => `${k.replace('aten::', '')} ${v}`).join(', ');
  return { line: `forward ${j.forward}, fwd+bwd ${j.forward_backward} top-level aten ops (torch ${j.torch}; forward: ${names})`, counts: j };
}

export default async function bench(): Promise<void> {
  const only = process.env.LINO_BENCH_BACKENDS?.split(',').map((b) => b.trim());
  const backends = ['cpu', 'wasm'].filter((b) => !only || only.includes(b));
  if (!only || only.includes('webgpu')) {
    const noGpu = await webgpuUnavailable();
    if (noGpu) console.log(`webgpu skipped: ${noGpu}`);
    else backends.push('webgpu');
  }
  const prev = tf.getBackend();
  const cases = CASES.filter((c) => !process.env.LINO_BENCH_CASE || c.name.includes(process.env.LINO_BENCH_CASE));
  for (const c of cases) {
    console.log(`\n${c.name}: kernels launched (engine dispatches; top kernel names)`);
    const torch = torchCounts(c);
    console.log(`  PyTorch ${torch.line}`);
    for (const b of backends) {
      await tf.setBackend(b);
      await countBackend(b, c, torch.counts);
    }
  }
  if (prev) await tf.setBackend(prev);
}
