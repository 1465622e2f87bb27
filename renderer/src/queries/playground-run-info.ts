// What the Playground needs to know of a run before its first input: its benchmark (the
// run's data spec says it, or the workspace's dataset it trained on) and, for an autoregressive run,
// its window. Navier-Stokes and airfoil runs are solved first: their model input (the T_in history,
// the mesh) comes from the solver.
import { useApp } from '../stores/app-store';
import { useQuery } from './use-query';

export interface PlaygroundRunInfo {
  benchmark: string | null;
  autoregressive: { tIn: number; tOut: number } | null;
  grid: number[] | null;
}

/** The run's benchmark and window (null while it is read). */
export function usePlaygroundRunInfo(runId: string | null): PlaygroundRunInfo | null {
  const datasets = useApp((s) => s.workspace?.datasets);
  const q = useQuery(runId ? `pg-info|${runId}` : null, (a) => a.call('runs.get', { id: runId! }));
  const cfg = q.value?.config as { data?: { benchmark?: string }; resolvedData?: { id?: string | null; grid?: number[]; autoregressive?: { tIn: number; tOut: number } | null } } | undefined;
  // an answer for the run picked before (the query resets a render late) is not this run's
  if (!cfg || q.value?.summary.id !== runId) return null;
  const r = cfg.resolvedData;
  const benchmark = cfg.data?.benchmark ?? datasets?.find((d) => d.id === r?.id)?.benchmark ?? null;
  return { benchmark: r?.autoregressive ? 'navier-stokes' : benchmark, autoregressive: r?.autoregressive ?? null, grid: r?.grid ?? null };
}
