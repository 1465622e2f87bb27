// The GPU bench's Node side (bundled by scripts/build-gpu-bench.mjs; run by run-gpu-bench.sh):
// the engine's LinoOperator training step on webgpu for the bench's cases (cases.ts), median of N steps
// after W warm-up steps; per step: kernels, GPU programs by name (host encode time, and GPU time of
// a timed forward + backward from timestamp queries), GPU -> CPU reads. One JSON line per case.
//   node bench.mjs [--smoke] [--software]
import * as tf from '../../main/ops/tf';
import { formatAdapter, importWebgpuBackend } from '../../main/ops/webgpu-env';
import { createModel } from '../../main/model/registry';
import { makeTrainStep } from '../train-step';
import { gpuBenchCases } from './cases';
import { formatProgramTable, profilePrograms } from '../program-profile';
import { timeGemms } from '../gemm-table';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

async function main(): Promise<void> {
  if (args.includes('--print-cases')) {
    console.log(JSON.stringify(gpuBenchCases(smoke)));
    return;
  }
  const adapter = await importWebgpuBackend({ allowSoftware: args.includes('--software') });
  if (!adapter) throw new Error('no WebGPU adapter: is VK_ICD_FILENAMES pointing at the NVIDIA ICD and libvulkan.so.1 on LD_LIBRARY_PATH?');
  if (adapter.fallback && !args.includes('--software')) throw new Error(`only a software adapter (${formatAdapter(adapter)}): pass --software to time it anyway`);
  if (!(await tf.setBackend('webgpu'))) throw new Error('tf.setBackend("webgpu") failed');
  tf.enableProdMode();
  console.log(JSON.stringify({ adapter: formatAdapter(adapter), fallback: adapter.fallback, tfjs: tf.version_core }));
  const { warmup, steps, cases, gemmRows } = gpuBenchCases(smoke);
  // the GEMM section: our tiled GEMM against tfjs's MatMulPacked (PyTorch's side is run-gpu-bench.sh's)
  console.log(JSON.stringify({ gemm: await timeGemms(gemmRows, smoke ? { iters: 1, rounds: 1, widths: [32] } : { iters: 50, rounds: 5 }) }));
  for (const c of cases) {
    const cfg = c.config;
    const model = createModel(c.kind ?? 'lino', { ...cfg, seed: 1 });
    const x = tf.randomNormal([c.batch, ...c.grid, cfg.inChannels], 0, 1, 'float32', 1);
    const y = tf.randomNormal([c.batch, ...c.grid, cfg.outChannels], 0, 1, 'float32', 2);
    const s = makeTrainStep(model, x, y);
    for (let i = 0; i < warmup; i++) await s.step();
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      await s.step();
      times.push(performance.now() - t0);
    }
    const vars = [...model.variables.values()];
    const fwdBwd = () => {
      const { value, grads } = tf.variableGrads(() => tf.mean(tf.squaredDifference(model.forward(x).y, y)) as tf.Scalar, vars);
      tf.dispose([value, ...Object.values(grads)]);
    };
    const step = await profilePrograms(() => s.step());
    // timestamp queries end the compute pass per program: its wall time is not the step's
    const timed = await profilePrograms(fwdBwd, { gpuTime: true });
    const fwd = await profilePrograms(() => tf.dispose(tf.tidy(() => model.forward(x).y)));
    const ms = median(times);
    console.log(JSON.stringify({
      name: c.name, ms, times, kernelsPerStep: step.kernels, kernelsPerForward: fwd.kernels, programsPerStep: step.programs,
      hostMs: step.hostMs, reads: step.reads, gpuFwdBwdMs: timed.gpuMs, table: formatProgramTable(step, timed, ms, 20), device: s.opt.device,
    }));
    s.dispose();
    model.dispose();
    tf.dispose([x, y]);
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(`gpu bench failed: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
