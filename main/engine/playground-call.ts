// The Playground's calls: playground.predict and playground.draw are answered directly
// (one forward pass, one random field) in the Playground's worker (playground-lane.ts, so the engine
// thread keeps answering during a 512 x 512 pass), playground.solve queues a 'playground-solve' job that runs
// the benchmark's solver (./playground-solve-job.ts) in its own lane, and playground.save writes a one-sample
// dataset. A run is loaded once per checkpoint version and kept, so painting costs a forward pass.
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import type { JobSummary } from '../api/jobs';
import { RunStore } from '../runs/run-store';
import { writeDatasetLabel } from '../workspace/dataset-labels';
import { readCheckpointState, type CheckpointName } from '../runs/checkpoint';
import { loadPlaygroundRun, warmUpPlaygroundRun, type PlaygroundRun } from '../train/playground-run';
import { PlaygroundInputError, assertPredictionFinite, checkInput, distanceOf, predictInput, predictionDiagnostics, relL2Of } from '../train/playground-predict';
import { savePlaygroundSample } from '../train/playground-dataset';
import { predictWithLightMaps } from '../train/playground-light-maps';
import type { PlaygroundFields } from '../runs/playground-records';
import type { PlaygroundAnswer } from '../api/playground-wire';
import { SolverInputError, checkSolvable, drawBurgersU0, drawDarcyCoefficient } from '../data/generate/playground-solver';
import { FlowInputError, drawNsVorticity, type Vortex } from '../data/generate/playground-flows';
import { predictRollout, stepRelL2Of } from '../train/playground-rollout';
import type { ResizeMode } from '../data/stages/resize';
import { initBackend } from './tf-runtime';
import type { JobParams } from './job-params';

interface RunRef { workspace: string; id: string; checkpoint?: CheckpointName }

let cached: { key: string; run: Promise<PlaygroundRun> } | null = null;

/** The loaded run after its warm-up pass (its model disposed if that fails). */
async function warmed(run: PlaygroundRun): Promise<PlaygroundRun> {
  try {
    await warmUpPlaygroundRun(run);
    return run;
  } catch (e) {
    run.model.dispose();
    throw e;
  }
}

/** The run ready to predict, from the cache while its checkpoint is the same one (savedAt). */
export async function playgroundRun(p: RunRef): Promise<PlaygroundRun> {
  const checkpoint = p.checkpoint ?? 'best';
  const handle = new RunStore(join(p.workspace, 'runs')).open(p.id);
  const state = readCheckpointState(handle.dir, checkpoint);
  if (!state) throw new ApiError(`run '${p.id}' has no '${checkpoint}' checkpoint yet (it has not finished an epoch)`, 'invalid_params', { field: 'checkpoint' });
  const key = `${handle.dir}|${checkpoint}|${state.savedAt}`;
  if (cached?.key !== key) {
    const old = cached;
    await initBackend();
    cached = { key, run: loadPlaygroundRun(handle, checkpoint).then(warmed) };
    cached.run.catch(() => { if (cached?.key === key) cached = null; });
    old?.run.then((r) => r.model.dispose(), () => undefined);
  }
  return cached.run;
}

/** A PlaygroundInputError as the API's invalid_params naming the field; anything else as it is. */
export function asApi(method: string, e: unknown): unknown {
  return e instanceof PlaygroundInputError || e instanceof SolverInputError || e instanceof FlowInputError ? new ApiError(`${method}: invalid parameter ${e.message.replace(/^field /, '')}`, 'invalid_params', { field: e.field }) : e;
}

export async function playgroundPredictCall(p: RunRef & { input: PlaygroundFields; truth?: PlaygroundFields; lightMaps?: boolean }): Promise<PlaygroundAnswer> {
  const run = await playgroundRun(p);
  try {
    if (p.lightMaps && run.kind !== 'lino') throw new PlaygroundInputError('lightMaps', `run '${p.id}' is a '${run.kind}' model: light maps exist only for lino models`);
    if (p.lightMaps && run.autoregressive) throw new PlaygroundInputError('lightMaps', `run '${p.id}' rolls out (Navier-Stokes): the Playground shows light maps of one-step runs`);
    checkInput(run, p.input, 'input', run.inChannels);
    if (p.truth) {
      checkInput(run, p.truth, 'truth', run.outChannels);
      if (p.truth.grid.join() !== p.input.grid.join()) throw new PlaygroundInputError('truth.grid', `[${p.truth.grid.join(', ')}], expected the input's grid [${p.input.grid.join(', ')}]`);
    }
  } catch (e) {
    throw asApi('playground.predict', e);
  }
  // autoregressive runs roll out T_out frames from the T_in history, as the evaluation does
  let out;
  try {
    out = run.autoregressive ? await predictRollout(run, p.input) : p.lightMaps ? await predictWithLightMaps(run, p.input) : await predictInput(run, p.input);
    assertPredictionFinite(out.channels);
  } catch (e) {
    throw asApi('playground.predict', e);
  }
  const { channels, ms, ...maps } = out;
  const backend = (await initBackend()).active;
  return {
    runId: p.id, kind: run.kind, benchmark: run.benchmark, grid: [...p.input.grid],
    prediction: channels.map((c) => Array.from(c)),
    relL2: p.truth ? relL2Of(channels, p.truth.channels) : null,
    distance: distanceOf(run, p.input),
    backend, ms, ...maps,
    ...(run.autoregressive && p.truth ? { steps: stepRelL2Of(channels, p.truth.channels) } : {}),
    // live with each prediction: its physics check (and with a truth, its error spectrum)
    ...(run.grid.length <= 2 ? { diagnostics: predictionDiagnostics(run, p.input, channels, p.truth) } : {}),
  };
}

/** The solve's input: an airfoil run's own grid (its design makes the mesh), else the input as given, checked against the run. */
function solveInputOf(run: PlaygroundRun, p: { input?: PlaygroundFields; design?: number[] }): PlaygroundFields {
  if (run.benchmark === 'airfoil') {
    if (p.input) throw new PlaygroundInputError('input', 'an airfoil solve takes the design nodes (design), not an input: the generator makes the mesh');
    return { grid: [...run.grid], channels: [] };
  }
  if (p.design) throw new PlaygroundInputError('design', `design nodes are for airfoil runs, this run is on '${run.benchmark}'`);
  if (!p.input) throw new PlaygroundInputError('input', 'required: the input to solve from');
  // a Navier-Stokes solve starts from w0 (one channel) and makes the T_in history the model takes
  if (run.autoregressive && p.input.channels.length !== 1) throw new PlaygroundInputError('input.channels', `${p.input.channels.length} channels, a Navier-Stokes solve starts from one: the initial vorticity w0`);
  checkInput(run, p.input, 'input', run.autoregressive ? 1 : run.inChannels);
  return p.input;
}

/** Checks the input against the run and its benchmark's solver, then queues the solve in its own lane. */
export async function playgroundSolveCall(p: RunRef & { input?: PlaygroundFields; design?: number[] }, start: (params: Omit<JobParams['playground-solve'], 'workspace'>) => JobSummary): Promise<JobSummary> {
  const run = await playgroundRun(p);
  let input: PlaygroundFields;
  try {
    input = solveInputOf(run, p);
    checkSolvable(run.benchmark, input.grid, input.channels, { design: p.design }, run.generator);
  } catch (e) {
    throw asApi('playground.solve', e);
  }
  const extra = { ...(run.autoregressive ? { window: run.autoregressive } : {}), ...(p.design ? { design: [...p.design] } : {}), resizeMode: ((run.manifest as { parameters?: { resizeMode?: ResizeMode } }).parameters?.resizeMode ?? 'interpolate') };
  return start({ runId: p.id, benchmark: run.benchmark, generator: run.generator, input, extra });
}

export async function playgroundDrawCall(p: RunRef & { resolution?: number; seed: number; tau: number; threshold: number; vortices?: Vortex[] }): Promise<PlaygroundFields> {
  const run = await playgroundRun(p);
  const s = run.kind === 'deeponet' ? run.grid[0]! : p.resolution ?? run.grid[0]!;
  try {
    if (p.vortices?.length && run.benchmark !== 'navier-stokes') throw new PlaygroundInputError('vortices', `vortices are added to a Navier-Stokes w0, this run is on '${run.benchmark}'`);
    if (run.benchmark === 'darcy') return { grid: [s, s], channels: [Array.from(drawDarcyCoefficient(p.seed, s, p.tau, p.threshold))] };
    if (run.benchmark === 'burgers') return { grid: [s], channels: [Array.from(drawBurgersU0(p.seed, s))] };
    if (run.benchmark === 'navier-stokes') return { grid: [s, s], channels: [Array.from(drawNsVorticity(p.seed, s, p.vortices ?? [], run.generator))] };
  } catch (e) {
    throw asApi('playground.draw', e);
  }
  throw new ApiError(`playground.draw: run '${p.id}' is on '${run.benchmark}' data: fresh random inputs are drawn for darcy, burgers and navier-stokes runs (an airfoil run's input is its design nodes: playground.solve with design)`, 'invalid_params', { field: 'id' });
}

export async function playgroundSaveCall(p: RunRef & { input: PlaygroundFields; truth: PlaygroundFields; name: string }): Promise<{ datasetId: string; grid: number[] }> {
  const run = await playgroundRun(p);
  try {
    checkInput(run, p.input, 'input', run.inChannels);
    checkInput(run, p.truth, 'truth', run.outChannels);
    if (p.truth.grid.join() !== p.input.grid.join()) throw new PlaygroundInputError('truth.grid', `[${p.truth.grid.join(', ')}], expected the input's grid [${p.input.grid.join(', ')}]`);
    const datasetId = savePlaygroundSample(p.workspace, run, p.input, p.truth, p.name);
    // the name the user gave is the dataset's label: its id may be a free variant of it, and lists show labels, never ids
    writeDatasetLabel(join(p.workspace, 'datasets', datasetId), p.name);
    return { datasetId, grid: [...p.input.grid] };
  } catch (e) {
    throw asApi('playground.save', e);
  }
}
