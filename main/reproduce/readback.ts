// Finished reproductions read back from the workspace: each reproduce job leaves a
// summary (exports/reproduce-<name>-<size>[-runN]/<name>-<size>.json) naming its runs; the main
// table is rebuilt from those runs' metrics on disk (a run deleted since drops out, with a note),
// the transfer table and the figures come from the files the job wrote. So the Reproduce view shows
// the same tables after a view switch, a reload or a restart.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ReproduceResult, ReproTable } from '../api/reproduce';
import { EpochMetrics } from '../runs/run-records';
import { RunStore } from '../runs/run-store';
import { readUserText } from '../util/user-file';
import { errorMessage } from '../util/error-message';
import { presetNamed, type PresetSize } from './presets';
import { mainTable, type ArmRun } from './tables';

const SIZES: PresetSize[] = ['tiny', 'quick', 'paper'];

/** A stored summary as run-preset.ts writes it (figures without their data). */
type StoredSummary = Omit<ReproduceResult, 'figures'> & { figures: { kind: string; file: string }[]; armRuns?: ArmRun[]; repeat?: number };

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One recorded run with its numbers read again from its metrics; null when the run is gone. */
function reread(store: RunStore, rec: ArmRun): ArmRun | null {
  let epochs: EpochMetrics[];
  try {
    epochs = store.open(rec.runId).readMetrics().records.flatMap((r) => {
      const e = EpochMetrics.safeParse(r);
      return e.success ? [e.data] : [];
    });
  } catch {
    return null;
  }
  if (epochs.length === 0) return null;
  const best = epochs.reduce((a, b) => (b.val.relL2 < a.val.relL2 ? b : a));
  return { ...rec, bestEpoch: best.epoch, relL2: rec.steps ? rec.relL2 : best.val.relL2, relL2Decoded: rec.steps ? rec.relL2Decoded : best.val.relL2Decoded, secondsPerEpoch: median(epochs.map((e) => e.epochSeconds)) };
}

/** The summary's main table rebuilt from its runs on disk; the stored one when it cannot be. */
function rebuiltMain(s: StoredSummary, store: RunStore): { table: ReproTable; runs: ReproduceResult['runs'] } {
  const preset = presetNamed(s.preset);
  if (!preset || !s.armRuns?.length || !SIZES.includes(s.size)) return { table: s.tables[0]!, runs: s.runs };
  const live = s.armRuns.flatMap((r) => {
    const again = reread(store, r);
    return again ? [again] : [];
  });
  const table = mainTable(preset, s.size, live);
  const gone = s.armRuns.length - live.length;
  table.notes.push(gone > 0 ? `rebuilt from the ${live.length} runs still in the workspace (${gone} deleted since)` : 'rebuilt from its runs in the workspace');
  const kept = new Set(live.map((r) => r.runId));
  return { table, runs: s.runs.filter((r) => kept.has(r.id)) };
}

function readSummary(dir: string, store: RunStore): ReproduceResult | null {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    const raw = JSON.parse(readUserText(file)) as StoredSummary;
    if (!raw || typeof raw !== 'object' || name !== `${raw.preset}-${raw.size}.json` || !Array.isArray(raw.tables) || !Array.isArray(raw.runs)) continue;
    const { table, runs } = rebuiltMain(raw, store);
    const figures = (raw.figures ?? []).flatMap((f) => {
      const path = join(dir, `${raw.preset}-${raw.size}-${f.kind}.json`);
      return existsSync(path) ? [{ kind: f.kind, file: path, data: JSON.parse(readUserText(path)) as Record<string, unknown> }] : [];
    });
    const { armRuns: _armRuns, ...rest } = raw;
    return { ...rest, outDir: dir, runs, tables: [table, ...raw.tables.slice(1)], figures };
  }
  return null;
}

/**
 * Every finished reproduction in the workspace, oldest first; a folder whose summary cannot be read
 * is listed in `problems` (named by its folder), never thrown.
 */
export function readReproductions(workspace: string): { results: ReproduceResult[]; problems: string[] } {
  const exports = join(workspace, 'exports');
  if (!existsSync(exports)) return { results: [], problems: [] };
  const store = new RunStore(join(workspace, 'runs'));
  const results: ReproduceResult[] = [];
  const problems: string[] = [];
  for (const name of readdirSync(exports).filter((n) => n.startsWith('reproduce-')).sort()) {
    const dir = join(exports, name);
    try {
      const r = readSummary(dir, store);
      if (r) results.push(r);
    } catch (e) {
      problems.push(`${dir}: the reproduction's summary could not be read: ${errorMessage(e)}`);
    }
  }
  return { results: results.sort((a, b) => (a.repeat ?? 1) - (b.repeat ?? 1)), problems };
}
