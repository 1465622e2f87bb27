// The contract's calls for the host, the engine process, the open workspace, the UI state it keeps
// and the user's settings (the torch backend's Python) and the workspace's (the relL2 headlined).
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, type MethodSpec } from '../method-spec';
import { FileRef } from '../files';
import { EngineInfo, HostInfo, RelL2Headline, UiState, WorkspaceSettings, WorkspaceSummary } from '../host-records';

export const engineMethods = {
  /** The UI state saved in <workspace>/.lino/ui-state.json; null when none (or unreadable: `warning` says why). */
  'ui.state.get': { route: 'host', params: empty, result: z.object({ state: UiState.nullable(), warning: z.string().optional() }) },
  'ui.state.set': { route: 'host', params: z.object({ state: UiState }).strict(), result: z.object({ bytes: z.number() }) },
  'host.info': { route: 'host', params: empty, result: HostInfo },
  'engine.info': { route: 'engine', params: empty, result: EngineInfo },
  'engine.ping': { route: 'engine', params: z.object({ t: z.number() }).strict(), result: z.object({ t: z.number(), engineTime: z.number() }) },
  'engine.restart': { route: 'host', params: empty, result: z.object({ pid: z.number() }) },
  'workspace.get': { route: 'host', params: empty, result: WorkspaceSummary },
  /** Switch workspace to a folder the user chose (a directory reference). */
  'workspace.open': { route: 'host', files: ['dir'], params: z.object({ dir: FileRef }).strict(), result: WorkspaceSummary },
  /**
   * The open workspace's settings (kept in its workspace.json): the fields given are set, the others
   * kept; answers them all. relL2Headline: which relL2 every view headlines, 'normalized' or 'decoded'.
   */
  'workspace.settings': { route: 'host', params: z.object({ relL2Headline: RelL2Headline.optional() }).strict(), result: WorkspaceSettings },
  /**
   * The Python interpreter of the 'torch' backend, kept in the user's settings: python sets it (null:
   * back to LINO_PYTHON, else python3), omitted reads it. LINO_PYTHON, when set, wins over it.
   */
  'settings.python': {
    route: 'host',
    params: z.object({ python: z.string().min(1).max(4096).nullable().optional() }).strict(),
    result: z.object({ python: z.string().nullable(), envOverride: z.string().nullable() }),
  },
} as const satisfies Record<string, MethodSpec>;
