// train.calibrate through the real engine process: a tiny configuration is timed on the engine's
// backend (positive ms/step, steps/epoch from the split), an oversized one is refused with the
// memory preflight's message (and no run folder), and the engine still answers afterwards. A run's
// metrics events carry a step-based ETA within its first epoch (from its 3rd step on).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Calibration, JobSummary, WorkbenchEvent } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { waitFor } from '../../helpers/wait';

const prevBackend = process.env.LINO_BACKEND;
process.env.LINO_BACKEND = 'cpu'; // available everywhere
const { service, events, workspace } = engineService();
process.on('exit', () => {
  if (prevBackend === undefined) delete process.env.LINO_BACKEND;
  else process.env.LINO_BACKEND = prevBackend;
});

test('train.calibrate times a tiny configuration: positive ms/step, steps and seconds per epoch, total', async () => {
  const c = (await service.call('train.calibrate', {
    config: { data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 20, train: 16, val: 4 }, model: { width: 8, depth: 1 }, epochs: 5, batchSize: 4 },
  })) as Calibration;
  assert.equal(c.backend, 'cpu');
  assert.ok(c.msPerStep > 0, `ms/step ${c.msPerStep}`);
  assert.equal(c.steps, 3);
  assert.equal(c.stepsPerEpoch, 4);
  assert.deepEqual(c.grid, [29, 29]);
  assert.equal(c.train, 16);
  assert.ok(Math.abs(c.secondsPerEpoch - (4 * c.msPerStep) / 1000) < 1e-9);
  assert.ok(Math.abs(c.totalSeconds - 5 * c.secondsPerEpoch) < 1e-9);
  // Nothing was generated or created: calibration uses random data of the shape.
  assert.equal(existsSync(join(workspace, 'runs')) ? readdirSync(join(workspace, 'runs')).length : 0, 0);
});

test('train.calibrate refuses what the memory preflight refuses, and the engine still answers', async () => {
  await assert.rejects(
    service.call('train.calibrate', {
      config: { data: { kind: 'synthetic', grid: [1024, 1024], train: 4, val: 1 }, model: { width: 4096, depth: 64 }, epochs: 1, batchSize: 4, backend: 'wasm' },
    }),
    (e: Error & { code?: string; field?: string }) => {
      assert.match(e.message, /^memory: does not fit/);
      assert.match(e.message, /wasm backend allows/);
      return true;
    },
  );
  const pong = (await service.call('engine.ping', { t: 7 })) as { t: number };
  assert.equal(pong.t, 7);
});

test('train.calibrate of a stored dataset that does not exist names it', async () => {
  await assert.rejects(
    service.call('train.calibrate', { config: { data: { kind: 'dataset', id: 'no-such-set' }, model: { width: 8, depth: 1 }, epochs: 1 } }),
    /no-such-set/,
  );
});

test("a run's metrics carry a step-based ETA within its first epoch", async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', {
    config: { name: 'eta', data: { kind: 'synthetic', grid: [16], train: 48, val: 4 }, model: { width: 8, depth: 1 }, epochs: 2, batchSize: 2 },
  })) as { runId: string; job: JobSummary };
  type M = Extract<WorkbenchEvent, { type: 'metrics' }>;
  const metrics = () => events.slice(from).filter((e): e is M => e.type === 'metrics' && e.runId === runId);
  const firstEta = await waitFor(() => metrics().find((m) => m.etaSeconds != null), 120_000, 'a metrics event with an ETA');
  // Within epoch 1 (no epoch record yet), from the 3rd step on, and plausible: > 0.
  assert.equal(firstEta.epoch, undefined);
  assert.ok(firstEta.steps.every((s) => s.epoch === 1));
  assert.ok(firstEta.steps[firstEta.steps.length - 1]!.step >= 3);
  assert.ok(firstEta.etaSeconds! > 0);
  // Before the 3rd step no ETA is claimed.
  for (const m of metrics()) if (m.steps.length && m.steps[m.steps.length - 1]!.step < 3) assert.equal(m.etaSeconds ?? null, null);
  // The job's progress carries it too (not the elapsed-time guess that includes data preparation).
  const job = await waitFor(() => [...events].reverse().find((e) => e.type === 'job' && e.job.label.includes(runId) && e.job.etaSeconds != null), 60_000, 'a job event with ETA');
  assert.ok(job.type === 'job' && job.job.etaSeconds! >= 0);
  await service.call('train.stop', { id: runId });
  await waitFor(() => events.slice(from).find((e) => e.type === 'run' && e.runId === runId && ['done', 'stopped', 'failed'].includes(e.state)), 120_000, 'run end');
});
