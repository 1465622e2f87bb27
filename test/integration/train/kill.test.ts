// SIGKILL the trainer process at random moments, 20 times (4 runs x 5 kills, in parallel):
// every time the run still opens (config, status, metrics, checkpoints), lists as interrupted,
// at most the epoch in progress is lost, and resuming after all the kills reproduces the loss
// sequence of an uninterrupted run bit for bit (cpu backend).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '../../../main/ops/tf';
import { RunStore } from '../../../main/runs/run-store';
import { loadCheckpoint, readCheckpointState } from '../../../main/runs/checkpoint';
import { trainRun } from '../../../main/train/runner';
import { Rng } from '../../../main/train/rng';
import { tempDir } from '../../helpers/env';

const CHILD = fileURLToPath(new URL('../../helpers/train-child.ts', import.meta.url));
const RUNS = 4;
const KILLS_PER_RUN = Number(process.env.LINO_KILLS_PER_RUN ?? 5);
const ws = tempDir('lino-kill-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

const config = {
  name: 'kill',
  model: { width: 6, depth: 1 },
  data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 },
  epochs: 16,
  batchSize: 2,
  optimizer: { lr: 3e-3 },
};

function lifeOnce(runId: string, rng: Rng): Promise<{ killedWhile: 'startup' | 'training' | 'finished' }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ws.path, runId], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LINO_BACKEND: 'cpu' } });
    let phase: 'startup' | 'training' | 'finished' = 'startup';
    let timer: NodeJS.Timeout | null = null;
    const killAfter = (ms: number) => {
      timer = setTimeout(() => child.kill('SIGKILL'), ms);
    };
    if (rng.next() < 0.15) killAfter(rng.int(1500)); // sometimes during startup
    child.stdout.on('data', (b: Buffer) => {
      const s = b.toString();
      if (s.includes('training') && phase === 'startup') {
        phase = 'training';
        if (!timer) killAfter(rng.int(700));
      }
      if (/done|failed|stopped/.test(s)) phase = 'finished';
    });
    child.on('error', reject);
    child.on('exit', () => {
      if (timer) clearTimeout(timer);
      resolve({ killedWhile: phase });
    });
  });
}

function checkOpens(runId: string, prevEpoch: number): number {
  const h = store.open(runId);
  h.readConfig();
  const st = h.readStatus();
  assert.ok(['interrupted', 'queued', 'done'].includes(st.state), `status after a kill: ${st.state}`);
  const { records } = h.readMetrics();
  const summary = store.list().find((r) => r.id === runId)!;
  const ck = readCheckpointState(h.dir, 'last');
  const ckEpoch = ck?.epoch ?? 0;
  assert.equal(summary.epochsDone, ckEpoch);
  assert.ok(ckEpoch >= prevEpoch, `checkpoint went back from epoch ${prevEpoch} to ${ckEpoch}`);
  const lastRecorded = Math.max(0, ...records.filter((r) => r.type === 'epoch').map((r) => Number(r.epoch)));
  assert.ok(ckEpoch >= lastRecorded - 1, `metrics record epoch ${lastRecorded}, checkpoint only ${ckEpoch}: more than the epoch in progress lost`);
  if (ck) {
    const full = loadCheckpoint(h.dir, 'last')!;
    assert.ok(full.weights.size > 0 && full.expAvg.size === full.weights.size);
    assert.ok(loadCheckpoint(h.dir, 'best'), 'best opens too');
  }
  return ckEpoch;
}

test(`SIGKILL of the trainer at random moments (${RUNS * KILLS_PER_RUN} times) never leaves a run that fails to open`, { timeout: 600_000 }, async () => {
  const t0 = Date.now();
  const ref = store.create(config, "reference");
  assert.equal((await trainRun(ref)).state, 'done');
  const want = ref.readMetrics().records.map((r) => (r.type === 'step' ? `s${r.step}:${r.loss}` : `e${r.epoch}:${(r as { val: { relL2: number } }).val.relL2}`));
  console.log(`reference run ${Date.now() - t0} ms`);
  const phases: string[] = [];
  await Promise.all(
    Array.from({ length: RUNS }, async (_, k) => {
      const id = `killed-${k}`;
      store.create(config, id);
      const rng = new Rng(1000 + k);
      let epoch = 0;
      for (let i = 0; i < KILLS_PER_RUN; i++) {
        const r = await lifeOnce(id, rng);
        phases.push(r.killedWhile);
        epoch = checkOpens(id, epoch);
      }
    }),
  );
  assert.ok(phases.filter((p) => p === 'training').length >= RUNS * KILLS_PER_RUN * 0.5, `kills mostly land while training: ${phases.join(',')}`);
  console.log(`kills done ${Date.now() - t0} ms`);
  // Finish every run here and compare with the uninterrupted reference.
  for (let k = 0; k < RUNS; k++) {
    const h = store.open(`killed-${k}`);
    if (h.readStatus().state !== 'done') assert.equal((await trainRun(h)).state, 'done');
    const got = h.readMetrics().records.map((r) => (r.type === 'step' ? `s${r.step}:${r.loss}` : `e${r.epoch}:${(r as { val: { relL2: number } }).val.relL2}`));
    assert.deepEqual(got, want, `run killed-${k}: the loss sequence after ${KILLS_PER_RUN} kills equals the uninterrupted run's`);
  }
});
