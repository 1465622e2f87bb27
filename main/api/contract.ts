// The WorkbenchApi contract: every call the renderer can make, with zod schemas for its
// parameters and result, and every event the engine side can push. Both hosts (Electron IPC
// and the localhost WebSocket) validate against these schemas before anything reaches a
// service, and the renderer's types come from here, so a renamed call is a compile error.
// Types and schemas only: no I/O, importable from the renderer.
import { z } from 'zod';
import { describeIssue } from '../util/zod-issues';
import { ApiError } from './api-error';
import type { WorkbenchEvent } from './events';
import type { MethodSpec } from './method-spec';
import { engineMethods } from './methods/engine';
import { filesMethods } from './methods/files';
import { jobsMethods } from './methods/jobs';
import { datasetsMethods } from './methods/datasets';
import { runsMethods } from './methods/runs';
import { trainMethods } from './methods/train';
import { sweepsMethods } from './methods/sweeps';
import { playgroundMethods } from './methods/playground';

// The wire's records and the domain schemas it carries, re-exported so the renderer imports main/api alone.
export * from './domain';
export { CostReport } from '../train/diagnostics/schema';

export type { Route, MethodSpec } from './method-spec';

/**
 * Every call: name -> where it runs, its file-reference fields, params schema, result schema, by area
 * in ./methods/. A new call is one entry in its area's module (plus its handler in the service for
 * 'host', in main/engine/engine.ts otherwise).
 */
export const methods = {
  ...engineMethods,
  ...filesMethods,
  ...jobsMethods,
  ...datasetsMethods,
  ...runsMethods,
  ...trainMethods,
  ...sweepsMethods,
  ...playgroundMethods,
} as const satisfies Record<string, MethodSpec>;

export type MethodName = keyof typeof methods;
export type Params<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;
/** A call's parameters as parseParams answers them (defaults filled in). */
export type ParsedParams<M extends MethodName> = z.output<(typeof methods)[M]['params']>;
/** The calls the host process answers itself, and those it forwards to the engine (see Route). */
export type HostMethod = { [M in MethodName]: (typeof methods)[M]['route'] extends 'host' ? M : never }[MethodName];
export type EngineMethod = Exclude<MethodName, HostMethod>;
/** The contract's file-reference fields of a call (its `files`). */
type FileField<M extends MethodName> = (typeof methods)[M] extends { files: readonly (infer F extends string)[] } ? F : never;
/** `T` with the (dotted) field `F` resolved by the host: the reference dropped, the chosen `path` beside it. */
type Resolved<T, F extends string> = [F] extends [never] ? T : T extends unknown
  ? F extends `${infer H}.${infer R}` ? (H extends keyof T ? Omit<T, H> & { [K in H]: Resolved<T[K], R> } : T) : F extends keyof T ? Omit<T, F> & { path: string } : T
  : never;
/** An engine call's parameters as its handler gets them: defaults filled in, references resolved, the workspace added. */
export type EngineParams<M extends EngineMethod> = Resolved<ParsedParams<M>, FileField<M>> &
  ((typeof methods)[M]['route'] extends 'engine+workspace' ? { workspace: string } : unknown);

/** The one API the renderer talks to; implemented by the Electron preload bridge and the WebSocket client. */
export interface WorkbenchApi {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
}

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}

/** Validate a call's parameters; throws ApiError('invalid_params') naming the offending field. */
export function parseParams<M extends MethodName>(method: M, params: unknown): ParsedParams<M> {
  const schema = methods[method].params as z.ZodType;
  const r = schema.safeParse(params ?? {});
  if (!r.success) {
    // through unions too (train.start's config or resume): the field and what it expected
    const d = describeIssue(r.error.issues[0], params ?? {});
    const field = d.field || '(params)';
    throw new ApiError(`${method}: invalid parameter '${field}': ${d.text}`, 'invalid_params', { field });
  }
  return r.data as never;
}

