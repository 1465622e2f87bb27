// The contract's calls for sweeps (main/sweep): start from a sweep file's content, list, read one, pause / resume / stop.
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, type MethodSpec, ReportParams, ReportResult } from '../method-spec';
import { SweepDetail, SweepSummary } from '../../sweep/sweep-types';

export const sweepsMethods = {
  /**
   * Sweeps (main/sweep): start one from a sweep file's content (checked as sweep.json, errors name the
   * field; the same content resumes the same sweep), list them, read one (state, trials, analysis),
   * pause / resume / stop one. Trials are runs trained through train.start's engine path.
   */
  'sweeps.start': { route: 'engine+workspace', params: z.object({ config: z.record(z.string(), z.unknown()), id: z.string().max(128).optional() }).strict(), result: SweepSummary },
  'sweeps.list': { route: 'engine+workspace', params: empty, result: z.array(SweepSummary) },
  'sweeps.get': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: SweepDetail },
  'sweeps.control': { route: 'engine+workspace', params: z.object({ id: z.string().max(128), action: z.enum(['pause', 'resume', 'stop']) }).strict(), result: SweepSummary },
  /** The sweep's offline report (as runs.report): exports/report-<id>.html, both relL2 conventions, every trial's curve. */
  'sweeps.report': { route: 'host', params: ReportParams, result: ReportResult },
} as const satisfies Record<string, MethodSpec>;
