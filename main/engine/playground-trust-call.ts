// playground.trust: how far to trust a run's prediction of one input (a Fields sample, a Playground
// input). Every run of its seed group that has the checkpoint loads and predicts the input (the
// Playground's own predict path), giving the spread over the seeds (train/seed-spread.ts); the input's
// distance to the training inputs comes from the run itself. Answered in the Playground's worker
// (playground-lane.ts): a group of models predicting would otherwise hold the engine thread.
import { join } from 'node:path';
import { RunStore } from '../runs/run-store';
import { readCheckpointState, type CheckpointName } from '../runs/checkpoint';
import type { PlaygroundFields } from '../runs/playground-records';
import type { PlaygroundTrust } from '../api/playground-wire';
import { loadPlaygroundRun, type PlaygroundRun } from '../train/playground-run';
import { assertPredictionFinite, checkInput, distanceOf, predictInput } from '../train/playground-predict';
import { predictRollout } from '../train/playground-rollout';
import { seedSpread } from '../train/seed-spread';
import { errorMessage } from '../util/error-message';
import { asApi, playgroundRun } from './playground-call';

/** The run's decoded prediction of `input` (a rollout for an autoregressive run). */
async function predictionOf(run: PlaygroundRun, input: PlaygroundFields): Promise<Float32Array[]> {
  const out = run.autoregressive ? await predictRollout(run, input) : await predictInput(run, input);
  assertPredictionFinite(out.channels);
  return out.channels;
}

export async function playgroundTrustCall(p: { workspace: string; id: string; checkpoint?: CheckpointName; input: PlaygroundFields }): Promise<PlaygroundTrust> {
  const checkpoint = p.checkpoint ?? 'best';
  const run = await playgroundRun(p);
  try {
    checkInput(run, p.input, 'input', run.inChannels);
  } catch (e) {
    throw asApi('playground.trust', e);
  }
  const store = new RunStore(join(p.workspace, 'runs'));
  const self = store.list().find((r) => r.id === p.id);
  const group = self?.group ?? null;
  const others = group ? store.list().filter((r) => r.group === group && r.id !== p.id) : [];
  const members: PlaygroundTrust['members'] = [];
  const preds: Float32Array[][] = [];
  const skipped: PlaygroundTrust['skipped'] = [];
  const own = await predictionOf(run, p.input).catch((e: unknown) => { throw asApi('playground.trust', e); });
  members.push({ id: p.id, name: self?.name ?? p.id, seed: self?.seed ?? null, fromMean: 0 });
  preds.push(own);
  // each member loads on its own (the Playground's cached run stays the one being painted)
  for (const r of others) {
    const handle = store.open(r.id);
    if (!readCheckpointState(handle.dir, checkpoint)) {
      skipped.push({ id: r.id, reason: `no '${checkpoint}' checkpoint yet` });
      continue;
    }
    let m: PlaygroundRun | null = null;
    try {
      m = await loadPlaygroundRun(handle, checkpoint);
      checkInput(m, p.input, 'input', m.inChannels);
      preds.push(await predictionOf(m, p.input));
      members.push({ id: r.id, name: r.name, seed: r.seed, fromMean: 0 });
    } catch (e) {
      skipped.push({ id: r.id, reason: errorMessage(e) });
    } finally {
      m?.model.dispose();
    }
  }
  const s = seedSpread(preds);
  members.forEach((m, i) => { m.fromMean = s.fromMean[i]!; });
  return {
    runId: p.id, group, members, skipped,
    spread: preds.length > 1 ? { grid: [...p.input.grid], std: s.std, relative: s.relative } : null,
    distance: distanceOf(run, p.input),
  };
}
