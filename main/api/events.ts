// What the engine side pushes to every connected view, and the WebSocket's request/response frames.
import { z } from 'zod';
import type { ApiErrorShape } from './api-error';
import { JobSummary } from './jobs';
import { EpochMetrics, RunState, StepMetrics } from '../runs/run-records';

/** Events pushed to every connected view. */
export const WorkbenchEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job'), job: JobSummary }),
  z.object({ type: z.literal('engine'), state: z.enum(['starting', 'ready', 'crashed', 'restarting']), detail: z.string().optional(), pid: z.number().optional() }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
  /**
   * Live training metrics. 'steps' carries every step since the previous message (sent at most
   * 20 times a second, nothing dropped); 'epoch' one epoch's record; metrics.jsonl has them all.
   */
  /** etaSeconds: the run's time left from its recent step rate (from its 3rd step on; null before). */
  z.object({ type: z.literal('metrics'), runId: z.string(), steps: z.array(StepMetrics), epoch: EpochMetrics.optional(), etaSeconds: z.number().nullable().optional() }),
  /** A run changed state (queued, running, paused, done, failed, stopped). */
  z.object({ type: z.literal('run'), runId: z.string(), state: RunState, reason: z.string().optional(), epoch: z.number().optional(), step: z.number().optional() }),
]);
export type WorkbenchEvent = z.infer<typeof WorkbenchEvent>;

/** Wire format for request/response transports (WebSocket). */
export const WireRequest = z.object({ id: z.number().int(), method: z.string().max(100), params: z.unknown() });
export type WireMessage =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: ApiErrorShape }
  | { kind: 'event'; event: WorkbenchEvent };
