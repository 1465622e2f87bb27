// The app's "Reproduce" action: a reproduction preset (main/reproduce) as a 'reproduce' job with
// progress, ETA and cancel, the same run as `lino reproduce`. Runs go into the host's workspace,
// the table and figure data into a new folder exports/reproduce-<name>-<size>[-runN] (the engine picks it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { presetNamed, REPRODUCE_PRESETS, type PresetSize } from '../reproduce/presets';
import { presetInfo } from '../reproduce/preset-info';
import { reproductionName, runPreset } from '../reproduce/run-preset';
import { readReproductions } from '../reproduce/readback';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';

export const reproduceList = () => REPRODUCE_PRESETS.map(presetInfo);

/** The preset a call names, or an invalid_params error naming 'name'. */
export function reproducePreset(name: unknown) {
  const p = presetNamed(String(name));
  if (!p) throw new ApiError(`reproduce.start: invalid parameter 'name': '${String(name)}' is not a preset (expected one of ${REPRODUCE_PRESETS.map((x) => x.name).join(', ')})`, 'invalid_params', { field: 'name' });
  return p;
}

export function reproduceLabel(p: JobParams['reproduce']): string {
  return `Reproduce ${p.name} (${p.size})`;
}

/** reproduce.results: the workspace's finished reproductions, tables rebuilt from their runs. */
export const reproduceResults = (p: { workspace: string }) => readReproductions(p.workspace);

/** Finished reproductions of this preset and size in the workspace. */
function earlier(workspace: string, name: string, size: string) {
  return readReproductions(workspace).results.filter((r) => r.preset === name && r.size === size);
}

/**
 * A preset and size reproduced before runs again only when asked (`again`), as a new group with a
 * name of its own; otherwise refused, naming the earlier result, so no two runs look alike.
 */
export function refuseRepeat(p: { workspace: string; name: string; size?: string; again?: boolean }): void {
  const preset = reproducePreset(p.name);
  const size = p.size ?? 'tiny';
  const before = earlier(p.workspace, preset.name, size);
  if (before.length === 0 || p.again) return;
  const last = before[before.length - 1]!;
  throw new ApiError(`reproduce.start: invalid parameter 'again': ${preset.name} (${size}) was reproduced before (${last.outDir}); pass again: true to run it as a new group '${reproductionName(preset, size, before.length + 1)}', or show that result (reproduce.results)`, 'invalid_params', { field: 'again' });
}

export async function runReproduce(p: JobParams['reproduce'], ctx: JobContext) {
  const workspace = p.workspace;
  if (!workspace) throw new ApiError('reproduce.start: no workspace folder given', 'invalid_params', { field: 'workspace' });
  const preset = reproducePreset(p.name);
  const size: PresetSize = p.size;
  // the n-th reproduction of this preset and size: runs, groups and folder all say 'runN'
  let repeat = earlier(workspace, preset.name, size).length + 1;
  while (existsSync(join(workspace, 'exports', `reproduce-${reproductionName(preset, size, repeat)}`))) repeat++;
  const outDir = join(workspace, 'exports', `reproduce-${reproductionName(preset, size, repeat)}`);
  return runPreset(preset, size, { workspace, outDir, repeat, ...(p.backend ? { backend: p.backend } : {}), signal: ctx.signal, owner: 'the engine (reproduce)', onProgress: (f, m) => ctx.progress(f, m) });
}
