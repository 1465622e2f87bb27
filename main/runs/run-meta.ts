// runs/<id>/meta.json: the user's notes and tags for a run. Kept apart from config.json (written
// once, reproduces the run) so annotating never touches what training reads. Written atomically,
// validated on write and on read: a damaged or hand-edited file reads as no notes, never fails a listing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunMeta } from './run-records';
import { writeJsonAtomic } from '../util/atomic-file';

export const metaPath = (runDir: string) => join(runDir, 'meta.json');

/** The stored notes and tags; defaults when there is no file or it does not validate. */
export function readRunMeta(runDir: string): RunMeta {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(metaPath(runDir), 'utf8'));
  } catch {
    return { notes: '', tags: [] };
  }
  const r = RunMeta.safeParse(raw);
  return r.success ? r.data : { notes: '', tags: [] };
}

/**
 * Replaces the fields given (notes, tags) and writes meta.json atomically. Tags are deduplicated
 * keeping their first spelling; the result is validated (sizes, charset) before anything is written,
 * with an error naming the file and the field.
 */
export function updateRunMeta(runDir: string, patch: { notes?: string; tags?: string[] }): RunMeta {
  const cur = readRunMeta(runDir);
  const tags = patch.tags ? [...new Set(patch.tags)] : cur.tags;
  const r = RunMeta.safeParse({ notes: patch.notes ?? cur.notes, tags });
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`${metaPath(runDir)}: ${issue.path.join('.') || 'meta'}: expected ${issue.message}`);
  }
  writeJsonAtomic(metaPath(runDir), r.data);
  return r.data;
}
