// The user's own label of a dataset: datasets/<id>/label.json, beside the manifest (which records
// how the data were made and is never rewritten for a name).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../util/atomic-file';

export const MAX_LABEL = 80;

export function readDatasetLabel(dir: string): string | null {
  try {
    const j = JSON.parse(readFileSync(join(dir, 'label.json'), 'utf8')) as { label?: unknown };
    return typeof j.label === 'string' && j.label.length <= MAX_LABEL ? j.label : null;
  } catch {
    return null;
  }
}

/** Sets (or with '' clears) a dataset's label; refuses a folder that is not a dataset. */
export function writeDatasetLabel(dir: string, label: string): string | null {
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`${join(dir, 'manifest.json')}: missing; expected a dataset folder written by the workbench`);
  const clean = label.trim();
  writeJsonAtomic(join(dir, 'label.json'), { label: clean });
  return clean || null;
}
