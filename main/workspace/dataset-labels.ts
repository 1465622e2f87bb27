// The user's own label of a dataset: datasets/<id>/label.json, beside the manifest (which records
// how the data were made and is never rewritten for a name).
import { existsSync } from 'node:fs';
import { readUserText } from '../util/user-file';
import { join } from 'node:path';
import { writeJsonAtomic } from '../util/atomic-file';

export const MAX_LABEL = 80;

export function readDatasetLabel(dir: string): string | null {
  try {
    const j = JSON.parse(readUserText(join(dir, 'label.json'), { maxBytes: 4096 })) as { label?: unknown };
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
