// The GPU bench's GEMM table (bench/gemm-table.ts) on this machine's WebGPU adapter, which here
// is SwiftShader (a software GPU): the times are meaningless there (the table is printed to check
// the section end to end); the real numbers come from bench/gpu/run-gpu-bench.sh on an H100/H200.
// PyTorch: torch.matmul on the CPU in the same run.   npm run bench gemm
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as tf from '../main/ops/tf';
import { webgpuUnavailable } from '../test/helpers/webgpu-env';
import { GEMM_WIDTHS, gemmTable, timeGemms } from './gemm-table';

const PY = '/usr/bin/python3';
const ROWS = 2048; // small: SwiftShader runs on the CPU

export default async function bench(): Promise<void> {
  const why = await webgpuUnavailable();
  if (why) { console.log(`skipped: ${why}`); return; }
  const prev = tf.getBackend();
  await tf.setBackend('webgpu');
  try {
    console.log('GEMM table on SwiftShader (a software GPU): the times are MEANINGLESS here, only the GPU bench (bench/gpu) on an H100/H200 measures them');
    const rows = await timeGemms(ROWS, { iters: 2, rounds: 3 });
    let torch: Record<string, number> | undefined;
    if (existsSync(PY)) {
      const script = new URL('../tools/parity/gemm_bench.py', import.meta.url).pathname;
      const r = spawnSync(PY, [script, '--rows', String(ROWS), '--widths', ...GEMM_WIDTHS.map(String), '--device', 'cpu', '--threads', '1'], { encoding: 'utf8' });
      if (r.status === 0) torch = (JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: Record<string, number> }).ms;
      else console.log(`PyTorch skipped: ${r.stderr.trim().split('\n').pop()}`);
    }
    console.log(gemmTable(rows, torch, 'PyTorch CPU'));
  } finally {
    if (prev) await tf.setBackend(prev);
  }
}
