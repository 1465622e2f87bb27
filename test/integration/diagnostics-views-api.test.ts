// The diagnostics the Fields, Playground and Rollout views draw, through the real engine: each shown
// sample's own spectrum and physics check in runs.evaluate (the same numbers as the split's per-sample
// rows), playground.predict's diagnostics with and without a truth, and playground.trust (the spread
// over a seed group; a run alone has none; a bad input is refused by field).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineService } from '../helpers/engine-service';
import { standardRun } from '../helpers/standard-runs';
import { PlaygroundAnswer, PlaygroundTrust, type EvaluationResult, type JobSummary, type RunSummary } from '../../main/api/contract';

const { service, settled, shared } = engineService();

async function evaluate(id: string, extra: Record<string, unknown> = {}): Promise<EvaluationResult> {
  const job = (await service.call('runs.evaluate', { id, checkpoint: 'best', split: 'val', fields: true, diagnostics: true, ...extra } as never)) as JobSummary;
  const done = await settled(job.id, 120_000);
  assert.equal(done.state, 'done', done.error);
  return done.result as EvaluationResult;
}

test('runs.evaluate fields with diagnostics: each shown sample carries its own spectrum and physics, equal to the split\'s rows', async () => {
  const r = await shared(standardRun('darcy', 'fno'));
  const res = (await evaluate(r.id, { indices: [1] })).resolutions[0]!;
  const split = res.diagnostics!;
  assert.ok(res.fields!.length >= 4);
  for (const f of res.fields!) {
    const d = f.diagnostics!;
    const { index: _i, ...row } = split.spectrum!.perSample.find((s) => s.index === f.index)!;
    assert.deepEqual(d.spectrum!.mean, row, `sample ${f.index}: its spectrum is the split's row`);
    assert.equal(d.spectrum!.perSample[0]!.index, f.index);
    const p = split.physics!.perSample.find((s) => s.index === f.index)!;
    assert.equal(d.physics!.mean.prediction, p.prediction);
    assert.equal(d.physics!.mean.truth, p.truth);
    assert.ok(d.physics!.mean.truth! < d.physics!.mean.prediction, 'the solver\'s own field obeys the PDE better');
    assert.equal(d.physics!.map!.prediction.length, 29 * 29);
    assert.equal(d.physics!.map!.truth!.length, 29 * 29);
  }
  // the first row's maps are the split's (its first sample)
  const first = res.fields!.find((f) => f.index === 0);
  if (first) assert.deepEqual(first.diagnostics!.physics!.map, split.physics!.map);
});

test('runs.evaluate rollout with diagnostics: the trajectory\'s spectrum per step and its vorticity residual per step', async () => {
  const r = await shared(standardRun('navier-stokes', 'fno'));
  const res = (await evaluate(r.id)).resolutions[0]!;
  const f = res.fields![0]!;
  assert.equal(f.stepRelL2!.length, 2);
  assert.equal(f.diagnostics!.spectrum!.perChannel.length, 2, 'one spectrum per rollout step');
  assert.equal(f.diagnostics!.physics!.perStep!.length, 2);
  assert.equal(f.diagnostics!.physics!.equation!.perStep.length, 2);
  assert.ok(f.diagnostics!.physics!.equation!.mean.truth! < f.diagnostics!.physics!.equation!.mean.prediction);
});

test('playground.predict diagnostics: physics alone without a truth, spectrum and the truth\'s value with one', async () => {
  const r = await shared(standardRun('darcy', 'fno'));
  const sample = (await service.call('playground.sample', { id: r.id, index: 0 } as never)) as { input: { grid: number[]; channels: number[][] }; truth: { grid: number[]; channels: number[][] } };
  const alone = PlaygroundAnswer.parse(await service.call('playground.predict', { id: r.id, input: sample.input } as never));
  assert.equal(alone.diagnostics!.spectrum, null, 'no truth: no error spectrum');
  assert.equal(alone.diagnostics!.physics!.benchmark, 'darcy');
  assert.equal(alone.diagnostics!.physics!.mean.truth, null);
  assert.ok(alone.diagnostics!.physics!.mean.prediction > 0);
  const withTruth = PlaygroundAnswer.parse(await service.call('playground.predict', { id: r.id, input: sample.input, truth: sample.truth } as never));
  const d = withTruth.diagnostics!;
  assert.equal(d.physics!.mean.prediction, alone.diagnostics!.physics!.mean.prediction);
  assert.ok(d.physics!.mean.truth! < d.physics!.mean.prediction);
  assert.deepEqual(d.spectrum!.grid, [29, 29]);
  assert.ok(d.spectrum!.mean.fRmse.low! > 0);
  // the evaluation's sample 0 has the same physics (same input, same truth, same model)
  const ev = (await evaluate(r.id)).resolutions[0]!.diagnostics!.physics!.perSample.find((s) => s.index === 0)!;
  assert.ok(Math.abs(ev.prediction - d.physics!.mean.prediction) <= 1e-5 * ev.prediction, `${ev.prediction} vs ${d.physics!.mean.prediction}`);
});

test('playground.trust: a run alone has no spread; a seed group of two gives a std map; a bad input is refused by field', async () => {
  const alone = await shared(standardRun('darcy', 'fno'));
  const sample = (await service.call('playground.sample', { id: alone.id, index: 0 } as never)) as { input: { grid: number[]; channels: number[][] } };
  const t0 = PlaygroundTrust.parse(await service.call('playground.trust', { id: alone.id, input: sample.input } as never));
  assert.equal(t0.group, null);
  assert.equal(t0.spread, null);
  assert.equal(t0.members.length, 1);
  assert.ok(['in', 'edge', 'out'].includes(t0.distance.level));
  await assert.rejects(service.call('playground.trust', { id: alone.id, input: { grid: [29, 29], channels: [sample.input.channels[0]!, sample.input.channels[0]!] } } as never), /invalid parameter 'input.channels'/);
  // a seed group of two tiny FNO runs on the same data
  const config = { ...standardRun('darcy', 'fno'), name: 'trust group' };
  const started = (await service.call('train.start', { config, seeds: 2 } as never)) as { runId: string; group?: { runId: string }[] };
  const ids = started.group!.map((g) => g.runId);
  for (const t = Date.now(); ; await new Promise((res) => setTimeout(res, 100))) {
    const runs = (await service.call('runs.list', {})) as RunSummary[];
    const mine = runs.filter((x) => ids.includes(x.id));
    if (mine.every((x) => ['done', 'failed', 'stopped'].includes(x.state))) {
      assert.ok(mine.every((x) => x.state === 'done'), JSON.stringify(mine.map((x) => x.reason)));
      break;
    }
    assert.ok(Date.now() - t < 200_000, 'the group did not finish training');
  }
  const t = PlaygroundTrust.parse(await service.call('playground.trust', { id: ids[0]!, input: sample.input } as never));
  assert.ok(t.group);
  assert.deepEqual(t.members.map((m) => m.id).sort(), [...ids].sort());
  assert.deepEqual(t.members.map((m) => m.seed).sort(), [1, 2]);
  assert.deepEqual(t.spread!.grid, [29, 29]);
  assert.equal(t.spread!.std.length, 1);
  assert.equal(t.spread!.std[0]!.length, 29 * 29);
  assert.ok(t.spread!.relative > 0, 'two seeds predict differently');
  // two members: each is as far from the mean as the other
  assert.ok(Math.abs(t.members[0]!.fromMean - t.members[1]!.fromMean) < 1e-9);
});
