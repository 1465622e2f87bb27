// The Ablation view's store against a recording API: Launch is one sweeps.start (the ablation is a
// preset of a sweep, no train.start per variant), and the other variants are evaluated on the full
// model's samples even when that evaluation's 'done' event arrives before its call answers (events
// and answers travel apart; with no job event after it the grid used to wait for good).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrainConfig } from '../../../main/api/contract';
import { useApp } from '../../../renderer/src/stores/app-store';
import { useAblation } from '../../../renderer/src/stores/ablation-store';
import { ablationSweep, variantConfig, VARIANTS } from '../../../renderer/src/logic/ablation-plan';

const base = TrainConfig.parse({ name: 'abl base', seed: 5, data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1 }) as Record<string, unknown>;
const configs = VARIANTS.map((v) => variantConfig(base, v, { key: 'r_base', seed: 5, name: 'abl base' })!);

const field = (which: string, index: number) => ({ which, index, input: [[0]], reference: [[1, 2]], prediction: [[1, 2]] });
const doneJob = (id: string, result: unknown) => ({ type: 'job', job: { id, kind: 'evaluate', state: 'done', result } }) as never;

function recordingApi(onCall: (method: string, params: any) => unknown) {
  const calls: [string, any][] = [];
  return {
    calls,
    api: {
      async call(method: string, params: any) {
        calls.push([method, params]);
        return onCall(method, params);
      },
      onEvent: () => () => {},
    },
  };
}

test('Launch starts the variants as one sweep: a grid over the components, one seed group per variant', async () => {
  const rec = recordingApi(() => ({ id: 'ablation-r_base-x' }));
  useApp.setState({ api: rec.api as never });
  assert.equal(await useAblation.getState().launch(configs, 2), null);
  assert.deepEqual(rec.calls.map((c) => c[0]), ['sweeps.start']);
  assert.deepEqual(rec.calls[0]![1], { config: ablationSweep(configs, 2) });
  const sent = rec.calls[0]![1].config as { axes: { path: string }[]; groups: { group: string }[]; seeds: number };
  assert.equal(sent.axes[0]!.path, 'model.components');
  assert.deepEqual(sent.groups.map((g) => g.group), VARIANTS.map((v) => `r_base/${v.key}`));
});

test('a refused sweep is said, not thrown', async () => {
  const rec = recordingApi(() => {
    throw new Error("sweeps.start: config: axes[0] ('model.components'): bad");
  });
  useApp.setState({ api: rec.api as never });
  assert.match((await useAblation.getState().launch(configs, 2)) ?? '', /^Could not queue the variants: .*axes\[0\]/);
});

test("the others are evaluated at the full model's samples when its evaluation ended before the call answered", async () => {
  let n = 0;
  const rec = recordingApi((method, params) => {
    if (method === 'model.estimate') return { params: 100 + n++ };
    const id = `job-${n++}`;
    // the full model's job is done (its event applied) before runs.evaluate answers
    if (!params.indices) useApp.getState().applyEvent(doneJob(id, { resolutions: [{ grid: [8, 8], fields: [field('best', 1), field('median', 0), field('worst', 1)] }] }));
    return { id };
  });
  useApp.setState({ api: rec.api as never, jobs: {} });
  const models = Object.fromEntries(VARIANTS.map((v, i) => [v.key, { width: 4, depth: 1, scattering: 'efficient', components: (configs[i]!.model as { components: string[] }).components }]));
  await useAblation.getState().evaluate('k1', { variant: 'full', runId: 'r-full', runName: 'abl base/full' }, VARIANTS.slice(1).map((v) => ({ variant: v.key, runId: `r-${v.key}`, runName: v.key })), models);
  for (let i = 0; i < 50 && !useAblation.getState().evals.k1?.othersAsked; i++) await new Promise((r) => setTimeout(r, 10));
  const ev = useAblation.getState().evals.k1!;
  assert.deepEqual(ev.samples.map((s) => s.index), [1, 0]);
  assert.equal(ev.othersAsked, true);
  const others = rec.calls.filter(([m, p]) => m === 'runs.evaluate' && p.indices);
  assert.deepEqual(others.map(([, p]) => [p.id, p.indices]), VARIANTS.slice(1).map((v) => [`r-${v.key}`, [1, 0]]));
  assert.deepEqual(Object.keys(ev.others).sort(), ['no-reflection', 'no-refraction', 'no-scattering']);
  assert.equal(useAblation.getState().errors.k1, undefined);
});
