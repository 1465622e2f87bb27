// Finished evaluations kept in their run folder (runs/<id>/evaluations/<key>.json), so a view shows
// an evaluation again after a view switch, a reload or a restart without evaluating again. Keyed by
// what was asked (checkpoint, split, resolutions, samples, fields, rollout) and by the checkpoint's
// weights file (size and time): a checkpoint written since makes the saved result stale.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { readUserText } from '../util/user-file';
import { dirname, join } from 'node:path';
import { weightsPath, type CheckpointName } from './checkpoint';
import { writeFileAtomic } from '../util/atomic-file';

export interface EvaluationAsk {
  checkpoint: CheckpointName;
  split: 'train' | 'val' | 'test';
  resolutions: number[];
  indices: number[];
  fields: boolean;
  rolloutSteps?: number;
  /** Only when asked: older saved evaluations keep their keys. */
  diagnostics?: true;
  /** Only when asked (the transfer grids' data: solved or resampled); absent: the default choice. */
  source?: 'solved' | 'resampled';
}

/** The ask with its defaults, as a runs.evaluate call's params carry it. */
export function evaluationAsk(p: Record<string, unknown>): EvaluationAsk {
  const nums = (v: unknown) => (Array.isArray(v) ? v.map(Number) : []);
  return {
    checkpoint: p.checkpoint === 'last' ? 'last' : 'best',
    split: p.split === 'train' || p.split === 'test' ? p.split : 'val',
    resolutions: nums(p.resolutions),
    indices: nums(p.indices),
    fields: p.fields === true,
    ...(p.rolloutSteps !== undefined ? { rolloutSteps: Number(p.rolloutSteps) } : {}),
    ...(p.diagnostics === true ? { diagnostics: true as const } : {}),
    ...(p.source === 'solved' || p.source === 'resampled' ? { source: p.source } : {}),
  };
}

function stamp(runDir: string, checkpoint: CheckpointName): string | null {
  const w = weightsPath(runDir, checkpoint);
  if (!w) return null;
  const s = statSync(w);
  return `${s.size}-${Math.round(s.mtimeMs)}`;
}

function fileOf(runDir: string, ask: EvaluationAsk, st: string): string {
  const key = createHash('sha256').update(JSON.stringify({ ...ask, st })).digest('hex').slice(0, 24);
  return join(runDir, 'evaluations', `${key}.json`);
}

export function saveEvaluation(runDir: string, ask: EvaluationAsk, result: unknown): void {
  const st = stamp(runDir, ask.checkpoint);
  if (!st) return;
  const file = fileOf(runDir, ask, st);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, JSON.stringify({ ask, result }));
}

/** The saved result of this ask on the checkpoint as it is now; null when none (or stale, or unreadable). */
export function readEvaluation(runDir: string, ask: EvaluationAsk): unknown {
  const st = stamp(runDir, ask.checkpoint);
  if (!st) return null;
  const file = fileOf(runDir, ask, st);
  if (!existsSync(file)) return null;
  try {
    return (JSON.parse(readUserText(file)) as { result?: unknown }).result ?? null;
  } catch {
    return null; // a damaged cache file: evaluate again
  }
}
