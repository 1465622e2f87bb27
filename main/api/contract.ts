// The WorkbenchApi contract: every call the renderer can make, with zod schemas for its
// parameters and result, and every event the engine side can push. Both hosts (Electron IPC
// and the localhost WebSocket) validate against these schemas before anything reaches a
// service, and the renderer's types come from here, so a renamed call is a compile error.
// Types and schemas only: no I/O, importable from the renderer.
import { z } from 'zod';

/** An opaque handle for a file the user chose (dialog or in-app browser); never a raw path from the renderer. */
export const FileRef = z.string().regex(/^f_[A-Za-z0-9_-]{8,64}$/, 'a file reference issued by the host');
export type FileRef = z.infer<typeof FileRef>;

/** Which TensorFlow.js backend the engine runs and why the ones before it were skipped (main/ops/backend.ts). */
export const BackendReport = z.object({
  active: z.string(),
  tfBackend: z.string(),
  attempts: z.array(z.object({ name: z.string(), ok: z.boolean(), reason: z.string() })),
});
export type BackendReport = z.infer<typeof BackendReport>;

export const EngineInfo = z.object({
  version: z.string(),
  pid: z.number(),
  node: z.string(),
  tfjs: z.string(),
  backend: BackendReport,
  startedAt: z.string(),
});
export type EngineInfo = z.infer<typeof EngineInfo>;

export const JobKind = z.enum(['selftest']);
export type JobKind = z.infer<typeof JobKind>;

export const JobState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export const JobSummary = z.object({
  id: z.string(),
  kind: z.string(),
  state: JobState,
  label: z.string(),
  progress: z.number().min(0).max(1),
  etaSeconds: z.number().nullable(),
  message: z.string().optional(),
  error: z.string().optional(),
  result: z.unknown().optional(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type JobSummary = z.infer<typeof JobSummary>;

export const FileEntry = z.object({
  name: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number(),
  modified: z.string(),
  ref: FileRef.optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FileRoot = z.enum(['home', 'workspace']);

export const WorkspaceSummary = z.object({
  path: z.string(),
  datasets: z.array(z.object({ id: z.string(), name: z.string() })),
  runs: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
  exports: z.array(z.string()),
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

export const HostInfo = z.object({
  kind: z.enum(['electron', 'browser']),
  /** Native open/save dialogs (Electron) or the in-app file browser (browser mode). */
  nativeDialogs: z.boolean(),
  version: z.string(),
});
export type HostInfo = z.infer<typeof HostInfo>;

const empty = z.object({}).strict();

/** A name for a file in the workspace's exports/ folder: no path separators, no leading dot. */
export const ExportName = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => !/[\\/\0]/.test(s), 'a file name without path separators')
  .refine((s) => s !== '.' && s !== '..' && !s.startsWith('.'), 'a file name that does not start with a dot');

/** Largest export accepted (decoded bytes); the base64 text is 4/3 of it. */
export const EXPORT_MAX_BYTES = 32 * 1024 * 1024;

/** A LiNO configuration as the model builder edits it (the engine validates it fully). */
export const ModelConfig = z
  .object({
    dims: z.union([z.literal(1), z.literal(2)]),
    inChannels: z.number().int().min(1).max(64),
    outChannels: z.number().int().min(1).max(64),
    width: z.number().int().min(1).max(1024),
    depth: z.number().int().min(1).max(64),
    scattering: z.enum(['efficient', 'full']),
    components: z.array(z.enum(['reflection', 'refraction', 'scattering'])).min(1, 'at least one of reflection, refraction, scattering').max(3),
  })
  .strict();
export type ModelConfig = z.infer<typeof ModelConfig>;

export const ModelEstimate = z.object({
  params: z.number(),
  forwardFlops: z.number(),
  trainStepFlops: z.number(),
  paramStateBytes: z.number(),
  activationBytes: z.number(),
  peakBytes: z.number(),
  /** The wasm backend's address space (4 GiB): a step needing more cannot run there. */
  wasmLimitBytes: z.number(),
  exceedsWasm: z.boolean(),
  /** What the numbers come from: the model's estimate code, or a real model instance. */
  source: z.string(),
  /** Channels the model actually sees (data channels + coordinates when on). */
  inChannels: z.number(),
  /** Peak memory and FLOPs of one step for square grids of other sizes, same batch. */
  sweep: z.array(z.object({ side: z.number(), peakBytes: z.number(), trainStepFlops: z.number() })),
});
export type ModelEstimate = z.infer<typeof ModelEstimate>;

/** Every call: name -> [params schema, result schema]. */
export const methods = {
  'host.info': { params: empty, result: HostInfo },
  'engine.info': { params: empty, result: EngineInfo },
  'engine.ping': { params: z.object({ t: z.number() }).strict(), result: z.object({ t: z.number(), engineTime: z.number() }) },
  'engine.restart': { params: empty, result: z.object({ pid: z.number() }) },
  'workspace.get': { params: empty, result: WorkspaceSummary },
  /** Switch workspace to a folder the user chose (a directory reference). */
  'workspace.open': { params: z.object({ dir: FileRef }).strict(), result: WorkspaceSummary },
  /** Browser mode's in-app file browser: list a folder under one of the allowed roots. */
  'files.list': {
    params: z.object({ root: FileRoot, rel: z.string().max(4096).default('') }).strict(),
    result: z.object({ root: FileRoot, rel: z.string(), parent: z.string().nullable(), entries: z.array(FileEntry) }),
  },
  /** Electron: native open dialog. Browser mode answers null (the renderer uses files.list). */
  'files.pickOpen': {
    params: z.object({ directory: z.boolean().default(false), title: z.string().max(200).optional() }).strict(),
    result: z.object({ ref: FileRef, name: z.string() }).nullable(),
  },
  'jobs.start': {
    params: z.object({ kind: JobKind, params: z.record(z.string(), z.unknown()).default({}) }).strict(),
    result: JobSummary,
  },
  'jobs.cancel': { params: z.object({ id: z.string().max(64) }).strict(), result: z.object({ ok: z.boolean() }) },
  'jobs.list': { params: empty, result: z.array(JobSummary) },
  /** Save an export (figure or table) into the workspace's exports/ folder; answers the name it got. */
  'exports.save': {
    params: z
      .object({
        name: ExportName,
        mime: z.string().max(100).regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'a MIME type such as image/svg+xml'),
        data: z.string().max(Math.ceil(EXPORT_MAX_BYTES / 3) * 4, `at most ${EXPORT_MAX_BYTES / 1024 / 1024} MiB`).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 data'),
      })
      .strict(),
    result: z.object({ name: z.string(), size: z.number() }),
  },
  /** Parameter count, memory and FLOPs of one training step of a LiNO configuration on a grid. */
  'model.estimate': {
    params: z
      .object({
        config: ModelConfig,
        grid: z.array(z.number().int().min(2).max(65536)).min(1).max(2),
        batch: z.number().int().min(1).max(4096).default(8),
        coordinates: z.boolean().default(true),
      })
      .strict(),
    result: ModelEstimate,
  },
} as const;

export type MethodName = keyof typeof methods;
export type Params<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;

/** Events pushed to every connected view. */
export const WorkbenchEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job'), job: JobSummary }),
  z.object({ type: z.literal('engine'), state: z.enum(['starting', 'ready', 'crashed', 'restarting']), detail: z.string().optional(), pid: z.number().optional() }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
]);
export type WorkbenchEvent = z.infer<typeof WorkbenchEvent>;

/** The one API the renderer talks to; implemented by the Electron preload bridge and the WebSocket client. */
export interface WorkbenchApi {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
}

/** An error as it crosses a process or network boundary. */
export interface ApiErrorShape {
  message: string;
  code: 'invalid_params' | 'unknown_method' | 'engine_crashed' | 'not_found' | 'forbidden' | 'failed' | 'cancelled';
  /** What caused it, for showing the message next to it (a file, a field). */
  field?: string;
  file?: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ApiErrorShape['code'] = 'failed',
    readonly details: { field?: string; file?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  toJSON(): ApiErrorShape {
    return { message: this.message, code: this.code, ...this.details };
  }
  static from(e: unknown): ApiError {
    if (e instanceof ApiError) return e;
    if (e && typeof e === 'object' && 'message' in e && 'code' in e) {
      const s = e as ApiErrorShape;
      return new ApiError(s.message, s.code, { field: s.field, file: s.file });
    }
    return new ApiError(e instanceof Error ? e.message : String(e));
  }
}

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}

/** Validate a call's parameters; throws ApiError('invalid_params') naming the offending field. */
export function parseParams<M extends MethodName>(method: M, params: unknown): z.output<(typeof methods)[M]['params']> {
  const schema = methods[method].params as z.ZodType;
  const r = schema.safeParse(params ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.join('.') || '(params)';
    throw new ApiError(`${method}: invalid parameter '${field}': ${issue.message}`, 'invalid_params', { field });
  }
  return r.data as never;
}

/** Wire format for request/response transports (WebSocket). */
export const WireRequest = z.object({ id: z.number().int(), method: z.string().max(100), params: z.unknown() });
export type WireMessage =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: ApiErrorShape }
  | { kind: 'event'; event: WorkbenchEvent };
