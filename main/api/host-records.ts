// What the host answers about itself, the engine and the workspace (host.info, engine.info,
// workspace.get, ui.state.*): zod schemas only.
import { z } from 'zod';
import { BackendReport } from '../ops/backend-report';
import { TorchReport } from '../train/torch-report';

export const EngineInfo = z.object({
  version: z.string(),
  pid: z.number(),
  node: z.string(),
  tfjs: z.string(),
  backend: BackendReport,
  startedAt: z.string(),
  /** os.availableParallelism() of the engine's machine (the Training view's hint for `workers`). */
  cores: z.number().int().optional(),
  /** PyTorch as the engine's probe found it (absent while the first probe runs: train.torch waits for it). */
  torch: TorchReport.optional(),
});
export type EngineInfo = z.infer<typeof EngineInfo>;

/**
 * Which relL2 every view headlines (the other is shown beside it or in its table): on the normalized
 * fields the model trains on, or on the decoded fields in physical units. A workspace setting.
 */
export const RELL2_HEADLINES = ['normalized', 'decoded'] as const;
export const RelL2Headline = z.enum(RELL2_HEADLINES);
export type RelL2Headline = z.infer<typeof RelL2Headline>;
/** The workspace's settings, kept in its workspace.json (main/workspace/workspace-settings.ts). */
export const WorkspaceSettings = z.object({ relL2Headline: RelL2Headline });
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;

export const WorkspaceSummary = z.object({
  path: z.string(),
  /** name: the human name (benchmark, resolution, samples, split, label: main/api/dataset-name.ts); id: the content-hashed folder. */
  datasets: z.array(z.object({
    id: z.string(),
    name: z.string(),
    benchmark: z.string().optional(),
    grid: z.array(z.number()).optional(),
    counts: z.object({ train: z.number(), val: z.number(), test: z.number() }).optional(),
    label: z.string().optional(),
    /** Why the generator cannot solve it at another grid (an imported file, …); absent: it can (resolution transfer's "solved" source). */
    notSolvable: z.string().optional(),
  })),
  runs: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
  exports: z.array(z.string()),
  settings: WorkspaceSettings,
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

export const HostInfo = z.object({
  kind: z.enum(['electron', 'browser']),
  /** Native open/save dialogs (Electron) or the in-app file browser (browser mode). */
  nativeDialogs: z.boolean(),
  version: z.string(),
});
export type HostInfo = z.infer<typeof HostInfo>;

/** Workbench UI state (open view, selections, theme): one JSON object per workspace. */
export const UI_STATE_MAX_BYTES = 64 * 1024;
export const UiState = z
  .record(z.string().max(100), z.unknown())
  .refine((v) => JSON.stringify(v).length <= UI_STATE_MAX_BYTES, `UI state of at most ${UI_STATE_MAX_BYTES / 1024} KiB of JSON`);
export type UiState = z.infer<typeof UiState>;
