// `lino report ID` and runs.report: which report an id names (a run of runs/, a sweep of sweeps/, or
// a stored reproduction, ablations included), written as one self-contained HTML file.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RunStore } from '../runs/run-store';
import { listSweepIds } from '../sweep/sweep-state';
import { writeFileAtomic } from '../util/atomic-file';
import { readReproductions } from '../reproduce/readback';
import { reportHtml, type Report } from './report-page';
import { runReport } from './run-report';
import { sweepReport } from './sweep-report';
import { findReproduction, reproductionId, reproductionReport } from './reproduction-report';

export type ReportKind = 'run' | 'sweep' | 'reproduction';

/** The id names nothing to report (the API answers not_found; any other failure stays a failure). */
export class ReportNotFound extends Error {}

/** The report `id` names in the workspace: a run first, then a sweep, then a reproduction; an error lists what exists otherwise. */
export function buildReport(workspace: string, id: string, kind?: ReportKind): Report {
  const store = new RunStore(join(workspace, 'runs'));
  const idOk = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id);
  if (idOk && (!kind || kind === 'run') && existsSync(join(store.root, id, 'config.json'))) return runReport(workspace, store.open(id));
  if (idOk && (!kind || kind === 'sweep') && listSweepIds(workspace).includes(id)) return sweepReport(workspace, id);
  const repro = idOk && (!kind || kind === 'reproduction') ? findReproduction(workspace, id) : null;
  if (repro) return reproductionReport(workspace, repro);
  const sweeps = listSweepIds(workspace);
  const repros = readReproductions(workspace).results.map(reproductionId);
  throw new ReportNotFound(`'${id}' is not a ${kind ?? 'run, sweep or reproduction'} of the workspace ${workspace} (a run id of runs/, a sweep id of sweeps/${sweeps.length ? `: ${sweeps.slice(0, 5).join(', ')}` : ''}, or a reproduction${repros.length ? `: ${repros.slice(0, 5).join(', ')}` : ''})`);
}

/** Writes the report of `id` to `out` (HTML); answers its size in bytes. */
export function writeReport(workspace: string, id: string, out: string, kind?: ReportKind): { kind: string; bytes: number } {
  const r = buildReport(workspace, id, kind);
  const html = reportHtml(r);
  writeFileAtomic(out, html);
  return { kind: r.kind, bytes: Buffer.byteLength(html) };
}
