// Lanes through the real engine: while a long training run trains (in its worker), a Fields
// evaluation of a finished run and a dataset generation finish in lanes of their own, and the
// engine keeps answering engine.ping (a structural responsiveness guard with a generous bound).
// test-runner: alone (it measures engine.ping latency: another test file running beside it would be measured too)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationResult, JobSummary, RunSummary } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { openLoopPinger, p99 } from '../../helpers/ping-latency';

const prevBackend = process.env.LINO_BACKEND;
process.env.LINO_BACKEND = 'cpu';
after(() => {
  if (prevBackend === undefined) delete process.env.LINO_BACKEND;
  else process.env.LINO_BACKEND = prevBackend;
});

const { service, settled, trained } = engineService();
/** Polls an async condition until it holds (waitFor takes a synchronous one). */
async function until(pred: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  for (const t0 = Date.now(); !(await pred()); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
  }
}
const runState = async (id: string) => ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.id === id)?.state;

test('a Fields evaluation and a dataset generation finish while a long run trains; engine.ping stays responsive', async () => {
  const data = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2 };
  const finished = await trained({ name: 'finished', model: { width: 8, depth: 1 }, epochs: 1, batchSize: 2, data }, 300_000);
  assert.equal(finished.state, 'done');
  const { runId: long } = (await service.call('train.start', {
    config: { name: 'long', model: { width: 8, depth: 1 }, epochs: 500, batchSize: 2, data },
  } as never)) as { runId: string };
  await until(async () => (await runState(long)) === 'running', 'the long run to start training', 240_000);

  // Pings with the long run alone (this machine's own noise: other processes, the run's worker), for
  // 3 s before the evaluation and the generation and 3 s after them, and while they run beside it,
  // open loop (test/helpers/ping-latency.ts).
  const pinger = openLoopPinger((t) => service.call('engine.ping', { t }));
  const aloneBefore = await pinger.pingFor(3000);
  pinger.restart();
  const t0 = Date.now();
  const ev = (await service.call('runs.evaluate', { id: finished.id, fields: true, indices: [0] } as never)) as JobSummary;
  const gen = (await service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny', samples: 6, seed: 7, train: 3, val: 2, test: 1 } as never)) as JobSummary;
  assert.equal(ev.lane, 'evaluation');
  assert.equal(gen.lane, 'data');
  const [evDone, genDone] = await Promise.all([settled(ev.id, 180_000), settled(gen.id, 180_000)]);
  const besideJobs = pinger.window();
  const aloneAfter = await pinger.pingFor(3000);
  await pinger.stop();
  console.log(`evaluation + generation beside training: ${Date.now() - t0} ms`);
  assert.equal(evDone.state, 'done', evDone.error);
  assert.ok((evDone.result as EvaluationResult).resolutions[0]?.fields?.length, 'the evaluation drew fields');
  assert.equal(genDone.state, 'done', genDone.error);
  assert.deepEqual((genDone.result as { counts: Record<string, number> }).counts, { train: 3, val: 2, test: 1 }, 'the split sizes asked for, a test split among them');
  // The evaluation is kept in its run folder: the same ask reads it back (after a reload or a restart), another ask finds none.
  const kept = await service.call('runs.evaluation', { id: finished.id, fields: true, indices: [0] } as never);
  assert.deepEqual(kept, evDone.result);
  assert.equal(await service.call('runs.evaluation', { id: finished.id, fields: true, indices: [0], split: 'train' } as never), null);
  assert.equal(await runState(long), 'running', 'both finished while the long run still trains');
  const lanes = (await service.call('jobs.lanes', {})) as { lane: string; running: number }[];
  assert.equal(lanes[0]!.lane, 'training');
  assert.equal(lanes[0]!.running, 1);

  const alone = p99([...aloneBefore, ...aloneAfter]);
  const during = p99(besideJobs);
  assert.ok(besideJobs.length >= 5, `only ${besideJobs.length} pings`);
  console.log(`engine.ping p99: ${alone.toFixed(1)} ms with the run alone, ${during.toFixed(1)} ms with evaluation + generation beside it (${besideJobs.length} pings)`);
  // Under 50 ms, or within 50 ms of what this machine shows with nothing but the run (2 shared cores
  // under load: 15 to 130 ms): a job's work in the engine thread adds far more. Found by a CPU profile
  // of the engine: the generation's split and store (synchronous writes, fsync) held the engine thread
  // for 250 ms (p99 124 ms beside the jobs vs 6 ms alone), and the evaluation's 200 KB result, cloned
  // into the engine's heap and stringified again, cost up to 100 ms of GC there. The data lane's jobs
  // now run in its worker, a worker's result crosses the engine thread as JSON text, and job workers
  // run at a lower priority than the engine thread (Linux).
  const bound = 50 + alone;
  assert.ok(during < bound, `engine.ping p99 ${during.toFixed(1)} ms beside the jobs vs ${alone.toFixed(1)} ms with the run alone (bound ${bound.toFixed(1)} ms)`);

  assert.equal(((await service.call('train.stop', { id: long })) as { ok: boolean }).ok, true);
  await until(async () => (await runState(long)) === 'stopped', 'the long run to stop');
});
