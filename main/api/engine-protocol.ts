// Messages between a host process and the engine process (fork IPC or Electron's utilityProcess port).
import type { ApiErrorShape, WorkbenchEvent } from './contract';

export type ToEngine =
  | { type: 'call'; id: number; method: string; params: unknown }
  | { type: 'shutdown' };

export type FromEngine =
  | { type: 'ready'; pid: number }
  | { type: 'result'; id: number; ok: true; result: unknown }
  | { type: 'result'; id: number; ok: false; error: ApiErrorShape }
  | { type: 'event'; event: WorkbenchEvent }
  /** An event as JSON text (a job's large result, kept as text from its worker: main/engine/json-text.ts). */
  | { type: 'event-json'; json: string };

/** The engine's view of its parent: whichever transport launched it. */
export interface ParentChannel {
  send(msg: FromEngine): void;
  onMessage(listener: (msg: ToEngine) => void): void;
}
