// Messages between a host process and the engine process (fork IPC or Electron's utilityProcess port).
import type { ApiErrorShape, WorkbenchEvent } from './contract';

export type ToEngine =
  | { type: 'call'; id: number; method: string; params: unknown }
  /** A call whose params go as JSON text: parsed in the worker that answers it, not in the engine thread. */
  | { type: 'call-json'; id: number; method: string; json: string }
  | { type: 'shutdown' };

export type FromEngine =
  | { type: 'ready'; pid: number }
  | { type: 'result'; id: number; ok: true; result: unknown }
  | { type: 'result'; id: number; ok: false; error: ApiErrorShape }
  /** A call's result as JSON text (the Playground's 512^2 answers, kept as text from its worker: main/engine/json-text.ts). */
  | { type: 'result-json'; id: number; json: string }
  | { type: 'event'; event: WorkbenchEvent }
  /** An event as JSON text (a job's large result, kept as text from its worker: main/engine/json-text.ts). */
  | { type: 'event-json'; json: string };

/** The engine's view of its parent: whichever transport launched it. */
export interface ParentChannel {
  send(msg: FromEngine): void;
  onMessage(listener: (msg: ToEngine) => void): void;
}

/**
 * Calls whose params travel as JSON text (ToEngine 'call-json'): a Playground input of 512 x 512 is
 * 5 MB of JSON, whose parse held the engine thread for 20-60 ms; its worker parses it instead.
 */
export const TEXT_PARAM_METHODS: ReadonlySet<string> = new Set(['playground.predict']);
