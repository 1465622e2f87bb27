// Whether a run is autoregressive (Navier–Stokes style rollout) and its history / rollout lengths,
// read from the run's config as runs.get returns it. The runner records what the data really was
// (resolvedData.autoregressive, null for operator tasks) on first start; before that the data spec
// is the best word (a generated Navier–Stokes set or a synthetic autoregressive task).

export interface RolloutSpec {
  /** null: not known before the run first starts (a stored dataset's kind is read then). */
  autoregressive: boolean | null;
  tIn: number | null;
  tOut: number | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : null);

export function rolloutSpecOf(config: Obj): RolloutSpec {
  const resolved = obj(config.resolvedData);
  if (resolved && 'autoregressive' in resolved) {
    const ar = obj(resolved.autoregressive);
    return ar ? { autoregressive: true, tIn: int(ar.tIn), tOut: int(ar.tOut) } : { autoregressive: false, tIn: null, tOut: null };
  }
  const data = obj(config.data);
  if (!data) return { autoregressive: false, tIn: null, tOut: null };
  if (data.kind === 'dataset') return { autoregressive: null, tIn: null, tOut: null };
  const ns = (data.kind === 'synthetic' && data.task === 'autoregressive') || ((data.kind === 'generate' || data.kind === 'file') && data.benchmark === 'navier-stokes');
  if (!ns) return { autoregressive: false, tIn: null, tOut: null };
  // The contract's defaults for synthetic data; generated/file data default to the release's (unknown here).
  const dflt = data.kind === 'synthetic' ? 3 : null;
  return { autoregressive: true, tIn: int(data.tIn) ?? dflt, tOut: int(data.tOut) ?? dflt };
}

/**
 * Whether the Rollout view offers a run: its data roll out (Navier–Stokes), or, before a stored
 * dataset's run has started, the dataset id says Navier–Stokes.
 */
export function offersRollout(config: Obj | undefined): boolean {
  if (!config) return false;
  const s = rolloutSpecOf(config);
  if (s.autoregressive !== null) return s.autoregressive;
  const data = obj(config.data);
  return typeof data?.id === 'string' && data.id.startsWith('navier-stokes');
}
