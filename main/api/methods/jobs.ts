// The contract's calls for the job queue: start by kind, cancel, list, lanes.
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, type MethodSpec } from '../method-spec';
import { JobStartParams, JobSummary } from '../jobs';

export const jobsMethods = {
  /** Start a job by kind; its parameters are checked as the kind's own call checks them (no paths, no workspace). */
  'jobs.start': { route: 'engine+workspace', files: ['params.file'], params: JobStartParams, result: JobSummary },
  'jobs.cancel': { route: 'host', params: z.object({ id: z.string().max(64) }).strict(), result: z.object({ ok: z.boolean() }) },
  'jobs.list': { route: 'engine', params: empty, result: z.array(JobSummary) },
  /** The job lanes in the order they show, each with its slots (jobs at once); trainingSlots sets how many training runs run at once (a setting of this engine, each run in its own worker). */
  'jobs.lanes': {
    route: 'engine',
    params: z.object({ trainingSlots: z.number().int().min(1, 'at least 1').max(8, 'at most 8').optional() }).strict(),
    result: z.array(z.object({ lane: z.string(), slots: z.number().int(), running: z.number().int(), queued: z.number().int() })),
  },
} as const satisfies Record<string, MethodSpec>;
