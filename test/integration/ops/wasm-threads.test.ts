// The wasm backend on its threaded build in Node (main/ops/tfjs-internals/wasm-threads.ts): the
// thread count asked is what runs, the pool's workers are exactly the pool's and never hold a
// process open, only products of POOL_MIN_FLOPS or more get the pool, and what they compute is what
// the single-threaded build computes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { selectBackend } from '../../../main/ops/backend';
import { POOL_MIN_FLOPS, THREADPOOL_ADDRESS, withThreadPool, wasmThreadsWanted } from '../../../main/ops/tfjs-internals/wasm-threads';
import { helperChunks, helpersServing, runRows, stopHelpers } from '../../../main/ops/tfjs-internals/wasm-helper-threads';
import { heapOffset, type HeapBackend } from '../../../main/ops/tfjs-internals/wasm-heap';
import { matmulWasm } from '../../../main/ops/wasm/matmul-wasm';
import { matMulAB } from '../../../main/ops/matmul-ab';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('LINO_WASM_THREADS: a whole number from 1, at most 8; anything else is refused naming the variable; 1 unless asked', () => {
  assert.equal(wasmThreadsWanted({ LINO_WASM_THREADS: '3' }), 3);
  assert.equal(wasmThreadsWanted({ LINO_WASM_THREADS: '64' }), 8);
  for (const bad of ['0', '-2', '1.5', 'two', '2 threads']) {
    assert.throws(() => wasmThreadsWanted({ LINO_WASM_THREADS: bad }), /LINO_WASM_THREADS: expected a whole number of threads from 1 to 8, got/);
  }
  // nothing asked: the single-threaded build
  assert.equal(wasmThreadsWanted({}), 1);
});

const CHILD = `${ROOT}test/helpers/wasm-product-child.ts`;

function runChild(threads: string): Promise<{ code: number | null; reason: string; helped: number; out: number[][] }> {
  return new Promise((resolve, reject) => {
    // no process.exit in the script: the process must end by itself, its pool's workers unref'd
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { cwd: ROOT, env: { ...process.env, LINO_WASM_THREADS: threads }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`LINO_WASM_THREADS=${threads}: the process did not end by itself within 60 s\n${stderr}`)); }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        resolve({ code, ...JSON.parse(stdout.trim().split('\n').pop()!) });
      } catch {
        reject(new Error(`LINO_WASM_THREADS=${threads}: exit ${code}, no result\n${stderr}`));
      }
    });
  });
}

test('2 threads compute what 1 thread computes, and the process ends by itself', async () => {
  const [two, one] = await Promise.all([runChild('2'), runChild('1')]);
  assert.equal(two.code, 0);
  assert.equal(one.code, 0);
  assert.match(two.reason, /WebAssembly SIMD, 2 threads for products of 24 Mflop or more/);
  assert.match(one.reason, /WebAssembly SIMD, 1 thread \(one thread asked\)/);
  assert.equal(two.out.length, 23);
  assert.ok(two.helped > 0, 'our helper thread ran chunks of our products');
  assert.equal(one.helped, 0, 'no helper on the single-threaded build');
  for (let i = 0; i < two.out.length; i++) {
    const [p, q] = [two.out[i]!, one.out[i]!];
    assert.equal(p.length, q.length);
    let worst = 0;
    for (let j = 0; j < p.length; j++) worst = Math.max(worst, Math.abs(p[j]! - q[j]!) / (1 + Math.abs(q[j]!)));
    assert.ok(worst < 1e-5, `output ${i}: relative difference ${worst}`);
  }
});

test('the pool: as many threads as asked, no spare workers, and only big products get it', async () => {
  process.env.LINO_WASM_THREADS = '2';
  try {
    const report = await selectBackend('wasm');
    assert.match(report.attempts.at(-1)!.reason, /2 threads for products/);
  } finally {
    delete process.env.LINO_WASM_THREADS;
  }
  const m = (tf.backend() as unknown as { wasm: { wasmMemory: { buffer: ArrayBufferLike }; PThread: { unusedWorkers: unknown[]; runningWorkers: unknown[] }; _get_threads_count(): number } }).wasm;
  assert.equal(m.PThread.runningWorkers.length, 1, 'one worker beside this thread');
  assert.equal(m.PThread.unusedWorkers.length, 0, 'the 7 spare Emscripten workers were ended');
  const poolNow = () => new Int32Array(m.wasmMemory.buffer)[THREADPOOL_ADDRESS / 4];
  assert.equal(poolNow(), 0, 'no pool outside a big product');
  assert.ok(withThreadPool(POOL_MIN_FLOPS, poolNow)! > 0, 'a big product runs with the pool');
  assert.equal(withThreadPool(POOL_MIN_FLOPS - 1, poolNow), 0, 'a small one without');
  assert.equal(poolNow(), 0, 'taken back afterwards');
  // the pool is taken back even when the kernel throws
  assert.throws(() => withThreadPool(POOL_MIN_FLOPS, () => { throw new Error('kernel failed'); }), /kernel failed/);
  assert.equal(poolNow(), 0);
  // through the engine: a pooled product and the cpu backend agree
  const a = tf.randomUniform([300, 256], -1, 1, 'float32', 3);
  const b = tf.randomUniform([256, 200], -1, 1, 'float32', 4);
  const onWasm = tf.matMul(a, b).dataSync();
  const [av, bv] = [a.dataSync(), b.dataSync()];
  await tf.setBackend('cpu');
  const onCpu = tf.matMul(tf.tensor(av, [300, 256]), tf.tensor(bv, [256, 200])).dataSync();
  await tf.setBackend('wasm');
  let worst = 0;
  for (let i = 0; i < onCpu.length; i++) worst = Math.max(worst, Math.abs(onWasm[i]! - onCpu[i]!));
  assert.ok(worst < 1e-4, `pooled product differs from cpu by ${worst}`);
});

test('a bad LINO_WASM_THREADS is refused naming the variable; the command answers with it instead of crashing', { timeout: 60_000 }, () => {
  const r = spawnSync(process.execPath, [`${ROOT}bin/lino.mjs`, 'info', '--backends', '--backend', 'wasm'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LINO_WASM_THREADS: 'two' } });
  const out = `${r.stdout}${r.stderr}`;
  assert.match(out, /LINO_WASM_THREADS: expected a whole number of threads from 1 to 8, got 'two'/);
  assert.doesNotMatch(out, /^\s+at /m, 'a message, not a stack trace');
  assert.ok(r.status !== null, 'the command exited by itself');
});

test('our helper threads: a kernel split over them refuses arguments it cannot cut, names the kernel when a chunk traps, and serves the next job', { timeout: 60_000 }, async () => {
  process.env.LINO_WASM_THREADS = '2';
  try {
    await selectBackend('wasm');
  } finally {
    delete process.env.LINO_WASM_THREADS;
  }
  const be = tf.backend() as unknown as HeapBackend;
  tf.dispose(matMulAB(tf.ones([64, 64]), tf.ones([64, 64]))); // the first job offered starts the helpers
  const t0 = Date.now();
  while (!helpersServing(be) && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
  assert.ok(helpersServing(be), 'the helper serves within 30 s');
  const [M, K, N] = [64, 32, 32];
  const a = tf.randomUniform([M, K], -1, 1, 'float32', 5);
  const b = tf.randomUniform([K, N], -1, 1, 'float32', 6);
  const c = tf.zeros([M, N]);
  const [pa, pb, pc] = [a, b, c].map((t) => heapOffset(be, t)) as [number, number, number];
  const ab = (r0: number, r1: number) => [pa + 4 * r0 * K, pb, pc + 4 * r0 * N, r1 - r0, K, N, 0];
  assert.throws(() => runRows(be, matmulWasm, 'ab', M, 4, true, (r0, r1) => [pa + r0 * r0, pb, pc, r1 - r0, K, N, 0]), /ab \(wasm\): a split kernel's arguments must be at most 11, each affine in its first and last row/);
  assert.throws(() => runRows(be, matmulWasm, 'ab', M, 4, true, (r0, r1) => [...ab(r0, r1), 0, 0, 0, 0, 0]), /at most 11/);
  // chunks from row 8 on read A past the heap's end (below 4 GiB, so no address wraps back into the
  // heap; reads, so nothing is written before the trap): whichever thread takes them traps, and the
  // error names the kernel
  const heapBytes = (be as unknown as { wasm: { wasmMemory: { buffer: ArrayBufferLike } } }).wasm.wasmMemory.buffer.byteLength;
  const step = Math.ceil(heapBytes / 8) + 4096;
  assert.ok(pa + M * step < 2 ** 32, `a heap of ${heapBytes} bytes leaves no room past its end for this check`);
  assert.throws(() => runRows(be, matmulWasm, 'ab', M, 4, true, (r0, r1) => [pa + r0 * step, pb, pc + 4 * r0 * N, r1 - r0, K, N, 0]), /ab \(wasm( helper thread)?\): .*out of bounds/);
  // the next jobs run, split, and are right (a helper asleep takes a while to wake: this thread
  // runs every chunk of a job it has not woken for, so jobs are offered until it takes one)
  const before = helperChunks(be);
  const t1 = Date.now();
  while (helperChunks(be) === before && Date.now() - t1 < 20_000) {
    runRows(be, matmulWasm, 'ab', M, 4, true, ab);
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(helperChunks(be) > before, 'the helper takes chunks again');
  const want = tf.matMul(a, b).dataSync();
  const got = c.dataSync();
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(want[i]! - got[i]!));
  assert.ok(worst < 1e-4, `split product differs by ${worst}`);
  stopHelpers(be);
  tf.dispose([a, b, c]);
});
