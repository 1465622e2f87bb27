// The Playground's "a dataset sample as the input" and "keep what you found" calls:
// playground.sample answers one of the run's own val/test samples in physical units with its stored
// truth; playground.export writes the input, the engine's own prediction of it, the truth and
// |error| as .npy files into a new exports/ folder; playground.save with `into` appends the sample
// to an existing workspace dataset (main/train/playground-keep.ts says what is refused and why).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { RunStore } from '../runs/run-store';
import { PlaygroundInputError, assertPredictionFinite, checkInput, predictInput } from '../train/playground-predict';
import { appendPlaygroundSample, appendRefusal, exportPlaygroundArrays, runSample } from '../train/playground-keep';
import { DatasetStore } from '../data/dataset-store';
import { errorMessage } from '../util/error-message';
import type { PlaygroundRun } from '../train/playground-run';
import type { PlaygroundFields, PlaygroundSample } from '../runs/playground-records';
import type { PlaygroundAppendable } from '../api/playground-wire';
import { asApi, playgroundRun } from './playground-call';

interface RunRef { workspace: string; id: string; checkpoint?: 'best' | 'last' }

export async function playgroundSampleCall(p: RunRef & { split: 'val' | 'test'; index: number }): Promise<PlaygroundSample> {
  const run = await playgroundRun(p);
  try {
    const s = runSample(run, p.split, p.index);
    return { ...s, split: p.split, index: p.index };
  } catch (e) {
    throw asApi('playground.sample', e);
  }
}

function checkPair(run: PlaygroundRun, input: PlaygroundFields, truth: PlaygroundFields | undefined): void {
  checkInput(run, input, 'input', run.inChannels);
  if (!truth) return;
  checkInput(run, truth, 'truth', run.outChannels);
  if (truth.grid.join() !== input.grid.join()) throw new PlaygroundInputError('truth.grid', `[${truth.grid.join(', ')}], expected the input's grid [${input.grid.join(', ')}]`);
}

export async function playgroundExportCall(p: RunRef & { input: PlaygroundFields; truth?: PlaygroundFields; name: string }): Promise<{ folder: string; path: string; files: string[] }> {
  const run = await playgroundRun(p);
  try {
    checkPair(run, p.input, p.truth);
  } catch (e) {
    throw asApi('playground.export', e);
  }
  // the prediction is the engine's own, never an array a client sends
  try {
    const { channels } = await predictInput(run, p.input);
    assertPredictionFinite(channels);
    return exportPlaygroundArrays(join(p.workspace, 'exports'), p.name, p.input, channels, p.truth);
  } catch (e) {
    throw asApi('playground.export', e);
  }
}

/** Stored dataset id -> the runs of the workspace trained on it (their config's data { kind: 'dataset', id }, or the dataset their data resolved to). */
function runsByDataset(workspace: string): Map<string, string[]> {
  const dir = join(workspace, 'runs');
  const out = new Map<string, string[]>();
  if (!existsSync(dir)) return out;
  const store = new RunStore(dir);
  for (const r of readdirSync(dir)) {
    try {
      const cfg = store.open(r).readConfig<{ data?: { kind?: string; id?: string }; resolvedData?: { id?: string } }>();
      const ids = new Set([cfg.data?.kind === 'dataset' ? cfg.data.id : undefined, cfg.resolvedData?.id].filter((x): x is string => typeof x === 'string'));
      for (const id of ids) out.set(id, [...(out.get(id) ?? []), r]);
    } catch {
      // not a run folder (or a damaged one): it uses no dataset
    }
  }
  return out;
}

/** playground.appendable: every workspace dataset, with why a sample of the run on `grid` cannot be appended to it (null: it can). */
export async function playgroundAppendableCall(p: RunRef & { grid: number[] }): Promise<PlaygroundAppendable> {
  const run = await playgroundRun(p);
  const store = new DatasetStore(p.workspace);
  const used = runsByDataset(p.workspace);
  const ids = existsSync(store.root) ? readdirSync(store.root).filter((id) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && store.has(id)).sort() : [];
  return {
    datasets: ids.map((id) => {
      try {
        return { id, refusal: appendRefusal(store.manifest(id), run, p.grid, used.get(id) ?? []) };
      } catch (e) {
        return { id, refusal: errorMessage(e) };
      }
    }),
  };
}

let appendQueue: Promise<unknown> = Promise.resolve();

/** playground.save with `into`: the sample appended to that dataset's `split`. */
export async function playgroundAppendCall(p: RunRef & { input: PlaygroundFields; truth: PlaygroundFields; into: string; split: 'train' | 'val' | 'test' }): Promise<{ datasetId: string; grid: number[]; split: string; samples: number }> {
  const run = await playgroundRun(p);
  try {
    checkPair(run, p.input, p.truth);
    // one append at a time: two at once would both grow the same old split, and one sample would be lost
    const next = appendQueue.then(() => appendPlaygroundSample(p.workspace, p.into, p.split, run, p.input, p.truth, runsByDataset(p.workspace).get(p.into) ?? []));
    appendQueue = next.catch(() => undefined);
    const samples = await next;
    return { datasetId: p.into, grid: [...p.input.grid], split: p.split, samples };
  } catch (e) {
    if (e instanceof PlaygroundInputError) throw asApi('playground.save', e);
    throw e instanceof ApiError ? e : new ApiError(`playground.save: dataset '${p.into}': ${(e as Error).message}`, 'invalid_params', { field: 'into' });
  }
}
