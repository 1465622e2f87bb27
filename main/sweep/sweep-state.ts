// A sweep's record in the workspace: sweeps/<id>/sweep.json (the sweep as given, checked) and
// sweeps/<id>/state.json (configurations drawn, trials with their run ids, rung history, status,
// wall time), each written atomically, so a process killed at any point leaves either the old or the
// new state. A trial's run id is written here before its run is created: a re-run finds it and
// never starts a second run for the same trial.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { readUserText } from '../util/user-file';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { writeJsonAtomic } from '../util/atomic-file';
import { errorMessage } from '../util/error-message';
import { SweepConfig, type SweepParams } from './sweep-config';
import { SweepState, type RungRecord } from './sweep-types';

export { TRIAL_STATES, RungRecord, SweepTrial, SWEEP_STATUSES, SweepState } from './sweep-types';
export type { TrialState } from './sweep-types';

/** What each run of a sweep carries (runs/<id>/sweep-trial.json): any view can tell it is a trial. */
export interface TrialFile {
  sweepId: string;
  config: number;
  params: SweepParams;
  seed: number;
  rungs: number[];
  rungHistory: RungRecord[];
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function sweepsDir(workspace: string): string {
  return join(workspace, 'sweeps');
}

export function sweepDir(workspace: string, id: string): string {
  if (!ID_RE.test(id)) throw new Error(`sweep id '${id}': expected characters from [A-Za-z0-9._-]`);
  return join(sweepsDir(workspace), id);
}

/** Creates sweeps/<id>/ with its config and an empty state; refuses an id in use (nothing is overwritten). */
export function createSweep(workspace: string, id: string, config: SweepConfig): SweepState {
  const dir = sweepDir(workspace, id);
  if (existsSync(join(dir, 'state.json'))) throw new Error(`sweep '${id}' already exists in ${sweepsDir(workspace)}`);
  mkdirSync(dir, { recursive: true });
  writeJsonAtomic(join(dir, 'sweep.json'), config);
  const state: SweepState = { version: 1, id, name: config.name, createdAt: new Date().toISOString(), status: 'running', wallSeconds: 0, configs: [], trials: [] };
  writeJsonAtomic(join(dir, 'state.json'), state);
  return state;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readUserText(path, { what: 'a sweep record (JSON)' }));
  } catch (e) {
    throw new Error(`${path}: cannot read (${errorMessage(e)})`);
  }
}

export function readSweepConfig(workspace: string, id: string): SweepConfig {
  const path = join(sweepDir(workspace, id), 'sweep.json');
  const r = SweepConfig.safeParse(readJson(path));
  if (!r.success) throw new Error(`${path}: not a sweep configuration (${r.error.issues[0]?.message})`);
  return r.data;
}

export function readSweepState(workspace: string, id: string): SweepState {
  const path = join(sweepDir(workspace, id), 'state.json');
  if (!existsSync(path)) throw new Error(`sweep '${id}' not found in ${sweepsDir(workspace)} (no state.json)`);
  const r = SweepState.safeParse(readJson(path));
  if (!r.success) throw new Error(`${path}: not a sweep state (field '${r.error.issues[0]?.path.join('.')}': ${r.error.issues[0]?.message})`);
  if (r.data.id !== id) throw new Error(`${path}: not a sweep state (field 'id': expected '${id}', the sweep's folder name, got ${JSON.stringify(r.data.id)})`);
  return r.data;
}

export function writeSweepState(workspace: string, state: SweepState): void {
  writeJsonAtomic(join(sweepDir(workspace, state.id), 'state.json'), state);
}

/** The sweeps of a workspace (ids with a state.json), oldest first by id. */
export function listSweepIds(workspace: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(sweepsDir(workspace));
  } catch {
    return [];
  }
  return names.filter((n) => ID_RE.test(n) && existsSync(join(sweepsDir(workspace), n, 'state.json'))).sort();
}

/** The id a sweep file gets unless one is given: its name and a hash of its content (a re-run of the same file resumes it). */
export function sweepIdFor(config: SweepConfig): string {
  const hash = createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 8);
  return `${config.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 60) || 'sweep'}-${hash}`;
}

/**
 * The sweep `id` (default: sweepIdFor) in the workspace: created, or opened when it exists with the
 * same configuration; one with another configuration under that id is refused, never overwritten.
 */
export function openOrCreateSweep(workspace: string, config: SweepConfig, id = sweepIdFor(config)): { id: string; created: boolean; state: SweepState } {
  const dir = sweepDir(workspace, id);
  if (!existsSync(join(dir, 'state.json'))) return { id, created: true, state: createSweep(workspace, id, config) };
  const stored = readSweepConfig(workspace, id);
  if (JSON.stringify(stored) !== JSON.stringify(config)) {
    throw new Error(`sweep '${id}' exists in ${sweepsDir(workspace)} with another configuration (${join(dir, 'sweep.json')}); give another id`);
  }
  return { id, created: false, state: readSweepState(workspace, id) };
}
