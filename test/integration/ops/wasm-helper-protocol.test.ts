// tfjs-internals/wasm-helper-protocol.ts under contention: a helper thread claims chunks while this
// thread posts jobs back to back with chunk counts that change from job to job, and takes chunks
// itself. Every chunk run must be one of the job's (first row inside it, arguments of that job),
// and each job's chunks must be run exactly once. A helper that read NEXT for a job just finished
// and the new job's CHUNKS while a post was under way once claimed a chunk past the end of the
// finished job with the new job's words (rows r1 - r0 < 0: a kernel looping over 2^32 rows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { COMPLETED, WORDS, claimChunks, postJob } from '../../../main/ops/tfjs-internals/wasm-helper-protocol';

const PROTOCOL = new URL('../../../main/ops/tfjs-internals/wasm-helper-protocol.ts', import.meta.url).href;
// The helper: the serve loop of wasm-helper-worker.ts (spinning only), recording each chunk's job
// and rows; stats: [bad chunks, chunks run, stop flag, ready flag].
const HELPER = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((m) => { m.register(); return import(workerData.protocol); }).then(({ SEQ, claimChunks }) => {
  const ctl = new Int32Array(workerData.control);
  const stats = new Int32Array(workerData.stats);
  const runs = new Int32Array(workerData.runs);
  let seen = Atomics.load(ctl, SEQ);
  Atomics.store(stats, 3, 1);
  while (Atomics.load(stats, 2) === 0) {
    if (Atomics.load(ctl, SEQ) === seen) continue;
    seen = Atomics.load(ctl, SEQ);
    claimChunks(ctl, seen, (job, args) => {
      const [seq, rows, r0, r1] = args;
      if (job !== seq % 1000 || r0 < 0 || r1 > rows || r0 >= r1 || seq !== seen) Atomics.add(stats, 0, 1);
      else Atomics.add(runs, (seq % 4096) * 256 + r0 / 4, 1);
      Atomics.add(stats, 1, 1);
    }, () => Atomics.add(stats, 0, 1), true);
  }
});`;

test('a helper never runs a chunk that is not the current job\'s, and every chunk runs once, over 200,000 jobs', async () => {
  const control = new SharedArrayBuffer(4 * WORDS);
  const stats = new SharedArrayBuffer(16);
  const runs = new SharedArrayBuffer(4 * 4096 * 256);
  const ctl = new Int32Array(control), st = new Int32Array(stats), seen = new Int32Array(runs);
  const worker = new Worker(HELPER, { eval: true, workerData: { tsx: import.meta.resolve('tsx/esm/api'), protocol: PROTOCOL, control, stats, runs } });
  worker.on('error', (e) => { Atomics.store(st, 0, -1000); console.error(e); });
  try {
    const t0 = Date.now();
    while (Atomics.load(st, 3) === 0 && Atomics.load(st, 0) === 0 && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 10));
    assert.equal(Atomics.load(st, 3), 1, 'the helper started');
    let bad = 0;
    for (let seq = 1; seq <= 200_000; seq++) {
      const chunks = 1 + ((seq * 7) % 9); // 1 .. 9, changing every job
      const rows = 4 * chunks;
      const slot = (seq % 4096) * 256;
      seen.fill(0, slot, slot + chunks);
      // args(r0, r1) = [seq, rows, r0, r1]: each affine in r0 and r1
      postJob(ctl, seq, seq % 1000, rows, 4, chunks, [[seq, rows, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
      claimChunks(ctl, seq, (job, [s, n, r0, r1]) => {
        if (job !== seq % 1000 || s !== seq || n !== rows || r0! >= r1! || r1! > rows) bad++;
        else Atomics.add(seen, slot + r0! / 4, 1);
      }, () => bad++, false);
      const t0 = Date.now();
      while (Atomics.load(ctl, COMPLETED) < chunks) if (Date.now() - t0 > 10_000) assert.fail(`job ${seq}: ${Atomics.load(ctl, COMPLETED)} of ${chunks} chunks done after 10 s`);
      assert.equal(Atomics.load(ctl, COMPLETED), chunks, `job ${seq}: chunks counted`);
      for (let c = 0; c < chunks; c++) assert.equal(Atomics.load(seen, slot + c), 1, `job ${seq}: chunk ${c} ran ${Atomics.load(seen, slot + c)} times`);
    }
    assert.equal(bad, 0);
    assert.equal(Atomics.load(st, 0), 0, 'the helper ran a chunk of no current job');
    assert.ok(Atomics.load(st, 1) > 0, 'the helper took part');
  } finally {
    Atomics.store(st, 2, 1);
    await worker.terminate();
  }
});
