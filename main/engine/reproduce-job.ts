// The app's "Reproduce" action: a reproduction preset (main/reproduce) as a 'reproduce' job with
// progress, ETA and cancel, the same run as `lino reproduce`. Runs go into the host's workspace,
// the table and figure data into a new folder exports/reproduce-<name>-<size>[-n] (the host picks it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { presetNamed, REPRODUCE_PRESETS, type PresetSize } from '../reproduce/presets';
import { presetInfo } from '../reproduce/preset-info';
import { runPreset } from '../reproduce/run-preset';
import type { JobContext } from './jobs';

export const reproduceList = () => REPRODUCE_PRESETS.map(presetInfo);

/** The preset a call names, or an invalid_params error naming 'name'. */
export function reproducePreset(name: unknown) {
  const p = presetNamed(String(name));
  if (!p) throw new ApiError(`reproduce.start: invalid parameter 'name': '${String(name)}' is not a preset (expected one of ${REPRODUCE_PRESETS.map((x) => x.name).join(', ')})`, 'invalid_params', { field: 'name' });
  return p;
}

export function reproduceLabel(p: Record<string, unknown>): string {
  return `Reproduce ${String(p.name)} (${String(p.size)})`;
}

export async function runReproduce(p: Record<string, unknown>, ctx: JobContext) {
  const workspace = String(p.workspace ?? '');
  if (!workspace) throw new ApiError('reproduce.start: no workspace folder given', 'invalid_params', { field: 'workspace' });
  const preset = reproducePreset(p.name);
  const size = String(p.size) as PresetSize;
  const base = join(workspace, 'exports', `reproduce-${preset.name}-${size}`);
  let outDir = base;
  for (let i = 2; existsSync(outDir); i++) outDir = `${base}-${i}`;
  return runPreset(preset, size, { workspace, outDir, signal: ctx.signal, owner: 'the engine (reproduce)', onProgress: (f, m) => ctx.progress(f, m) });
}
