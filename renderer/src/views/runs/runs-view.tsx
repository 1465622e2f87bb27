import { useEffect, useMemo, useState } from 'react';
import type { Result, RunSummary } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';
import { useTraining } from '../../store/training-store';
import { configDifferences, formatSeconds, runTimes, type RunTimingFields } from '../../store/run-metrics';
import { groupLabel } from '../../store/ablation-plan';
import { usePersisted } from '../../store/persisted-state';
import { RunsCurves } from './runs-curves';
import { RunNotes } from './run-notes';
import { RunsHparams } from './runs-hparams';
import { RunCheckpoints } from './run-checkpoints';
import { RunClusterExport } from './run-cluster-export';
import { allTags, parseRunQuery, runMatches } from '../../store/run-filter';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';
import { ImportCheckpointCard } from '../../components/import-checkpoint-card';

type Group = Result<'runs.group'>;

const fmt = (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? '—' : v.toPrecision(4));
/** Created to the last status change: queue and pauses included (the status file records no more). */
function wallSeconds(r: RunSummary): number | null {
  if (!r.updatedAt) return null;
  const s = (Date.parse(r.updatedAt) - Date.parse(r.createdAt)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** Restored overlay picks: a short list of 'run:'/'group:' keys. */
function validPicks(v: unknown): boolean {
  return Array.isArray(v) && v.length <= 200 && v.every((k) => typeof k === 'string' && k.length <= 220 && /^(run|group):/.test(k));
}

const fmtMs = (g: { mean: number; std: number } | null | undefined) => (g ? `${g.mean.toPrecision(4)} ± ${g.std.toPrecision(2)}` : '—');

/** All runs and seed groups: what differs, best errors, state; overlay curves, resume, delete. */
export function RunsView() {
  const api = useApp((s) => s.api);
  const runs = useTraining((s) => s.runs);
  const curves = useTraining((s) => s.curves);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const loadHistory = useTraining((s) => s.loadHistory);
  const control = useTraining((s) => s.control);
  const deleteRun = useTraining((s) => s.deleteRun);
  const runErrors = useTraining((s) => s.runErrors);
  const [configs, setConfigs] = useState<Record<string, Record<string, unknown>>>({});
  const [groups, setGroups] = useState<Record<string, Group>>({});
  // Overlay picks ('run:<id>', 'group:<name>') survive a reload with the workspace's UI state.
  const [picked, setPicked] = usePersisted<string[]>('runs.overlay', [], validPicks);
  const selected = useMemo(() => new Set(picked), [picked]);
  const setSelected = (f: (s: Set<string>) => Set<string>) => setPicked((p) => [...f(new Set(p))]);
  // Per run, its epochs' durations (train time where the engine sends no trainSeconds), by epoch count.
  const [epochTimes, setEpochTimes] = useState<Record<string, { key: string; seconds: number[] }>>({});
  const [confirm, setConfirm] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<{ id: string; text: string } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  // Search words (and "tag:x") and the tag filter survive a reload like the overlay picks.
  const [query, setQuery] = usePersisted<string>('runs.search', '', (v) => typeof v === 'string' && v.length <= 200);
  const [tagFilter, setTagFilter] = usePersisted<string>('runs.tag', '', (v) => typeof v === 'string' && v.length <= 32);
  const [folder, setFolder] = useState<{ id: string; text: string; path?: string; ok: boolean } | null>(null);

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  // Configs (for the differences) and group statistics, read when the list changes.
  const listKey = runs.map((r) => `${r.id}:${r.state}:${r.epochsDone}`).join(',');
  useEffect(() => {
    if (!api) return;
    let live = true;
    (async () => {
      try {
        const missing = runs.filter((r) => !configs[r.id]);
        const got = await Promise.all(missing.map((r) => api.call('runs.get', { id: r.id }).then((g) => [r.id, g.config] as const)));
        const names = [...new Set(runs.map((r) => r.group).filter((g): g is string => !!g))];
        const gs = await Promise.all(names.map((g) => api.call('runs.group', { group: g })));
        const untimed = runs.filter((r) => typeof (r as RunSummary & RunTimingFields).trainSeconds !== 'number' && epochTimes[r.id]?.key !== `${r.epochsDone}`);
        const times = await Promise.all(untimed.map((r) => api.call('runs.metrics', { id: r.id, type: 'epoch' }).then((m) => [r.id, { key: `${r.epochsDone}`, seconds: m.records.flatMap((x) => (x.type === 'epoch' ? [x.epochSeconds] : [])) }] as const)));
        if (!live) return;
        if (times.length > 0) setEpochTimes((t) => ({ ...t, ...Object.fromEntries(times) }));
        if (got.length > 0) setConfigs((c) => ({ ...c, ...Object.fromEntries(got) }));
        setGroups(Object.fromEntries(gs.map((g) => [g.group, g])));
        setLoadError(null);
      } catch (e) {
        if (live) setLoadError(`Reading run details failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    })();
    return () => {
      live = false;
    };
  }, [api, listKey]);

  const diffs = useMemo(() => {
    const withConfig = runs.filter((r) => configs[r.id]);
    const d = configDifferences(withConfig.map((r) => configs[r.id]!));
    return Object.fromEntries(withConfig.map((r, i) => [r.id, Object.entries(d[i]!).map(([k, v]) => `${k}=${v}`).join(', ')]));
  }, [runs, configs]);

  // Rows: each group (with its runs under it), then ungrouped runs; only runs the search matches
  // (a group shows when any of its runs does).
  const tags = useMemo(() => allTags(runs), [runs]);
  const ordered = useMemo(() => {
    const q = parseRunQuery(query);
    // A stored tag no run has any more (deleted, renamed) filters nothing.
    if (tagFilter && tags.includes(tagFilter)) q.tags.push(tagFilter);
    const shown = runs.filter((r) => runMatches(r, q, diffs[r.id]));
    const out: ({ kind: 'group'; name: string; members: RunSummary[] } | { kind: 'run'; run: RunSummary; inGroup: boolean })[] = [];
    const seen = new Set<string>();
    for (const r of shown) {
      if (r.group) {
        if (seen.has(r.group)) continue;
        seen.add(r.group);
        const members = runs.filter((x) => x.group === r.group);
        out.push({ kind: 'group', name: r.group, members });
        for (const m of shown.filter((x) => x.group === r.group)) out.push({ kind: 'run', run: m, inGroup: true });
      } else out.push({ kind: 'run', run: r, inGroup: false });
    }
    return out;
  }, [runs, query, tagFilter, tags, diffs]);
  const editingRun = runs.find((r) => r.id === editing);

  const toggle = (key: string) => {
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  };

  // Curves of what is selected: runs ('run:<id>') and groups ('group:<name>').
  useEffect(() => {
    for (const key of selected) {
      const ids = key.startsWith('run:') ? [key.slice(4)] : runs.filter((r) => r.group === key.slice(6)).map((r) => r.id);
      for (const id of ids) if (!curves[id]) void loadHistory(id);
    }
  }, [selected, runs]);

  const columns: TableColumn[] = [
    { key: 'name', label: 'Run' },
    { key: 'group', label: 'Group' },
    { key: 'state', label: 'Status' },
    { key: 'epochs', label: 'Epochs', align: 'r' },
    { key: 'best', label: 'Best val relL2 (normalized)', align: 'r' },
    { key: 'bestEpoch', label: 'Best epoch', align: 'r' },
    { key: 'diff', label: 'Configuration differences' },
    { key: 'tags', label: 'Tags' },
    { key: 'created', label: 'Created' },
    { key: 'train', label: 'Train time (s)', align: 'r', digits: 3 },
    { key: 'queue', label: 'Queued (s)', align: 'r', digits: 3 },
  ];
  const label = (g: string) => groupLabel(g, runs);
  const times = (r: RunSummary) => runTimes(r as RunSummary & RunTimingFields, wallSeconds(r), epochTimes[r.id]?.seconds);
  const tableRows: TableRow[] = ordered.map((o) =>
    o.kind === 'group'
      ? { name: `${label(o.name)} (${o.members.length} seeds)`, group: label(o.name), state: '', epochs: null, best: groups[o.name]?.valRelL2 ?? null, bestEpoch: null, diff: '', tags: '', created: '', train: null, queue: null }
      : { name: o.run.name, group: o.run.group ? label(o.run.group) : '', state: o.run.state, epochs: `${o.run.epochsDone}/${o.run.epochs ?? '?'}`, best: o.run.bestValRelL2, bestEpoch: o.run.bestEpoch, diff: diffs[o.run.id] ?? '', tags: (o.run.tags ?? []).join(' '), created: o.run.createdAt.replace('T', ' ').slice(0, 19), train: times(o.run).train, queue: times(o.run).queue },
  );

  // Electron opens the folder in the file manager; a browser page cannot, so it shows the path to copy.
  const reveal = async (id: string) => {
    if (!api) return;
    try {
      const r = await api.call('runs.reveal', { id });
      setFolder(r.opened ? { id, text: 'Opened in the file manager:', path: r.path, ok: true } : { id, text: 'Run folder:', path: r.path, ok: true });
    } catch (e) {
      setFolder({ id, text: `Could not open the folder: ${e instanceof Error ? e.message : String(e)}`, ok: false });
    }
  };

  const remove = async (id: string) => {
    setDeleteError(null);
    try {
      await deleteRun(id);
      setSelected((s) => {
        const n = new Set(s);
        n.delete(`run:${id}`);
        return n;
      });
      setConfirm(null);
    } catch (e) {
      setDeleteError({ id, text: `Could not delete: ${e instanceof Error ? e.message : String(e)}` });
    }
  };

  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Runs</h1>
      {loadError && <p className="error-message" role="alert">{loadError}</p>}
      <ImportCheckpointCard />
      {runs.length === 0 ? (
        <p className="muted" data-testid="runs-empty">No runs yet. Start one from the Training view or the Workspace's quick start.</p>
      ) : (
        <>
          <div className="row wrap" role="search" aria-label="Filter runs">
            <label className="small">Search{' '}
              <input type="search" data-testid="runs-search" value={query} onChange={(e) => setQuery(e.target.value.slice(0, 200))} placeholder="name, notes, config… or tag:x" />
            </label>
            <label className="small">Tag{' '}
              <select data-testid="runs-tag-filter" value={tags.includes(tagFilter) ? tagFilter : ''} onChange={(e) => setTagFilter(e.target.value)}>
                <option value="">any</option>
                {tags.map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
            </label>
            <span className="muted small" data-testid="runs-shown">{ordered.filter((o) => o.kind === 'run').length} of {runs.length} runs</span>
          </div>
          <div className="table-wrap">
            <table className="runs-table" data-testid="runs-table">
              <caption className="muted">Select runs or groups to overlay their validation curves. Differences list only the settings that are not the same in every run.</caption>
              <thead>
                <tr>
                  <th scope="col">Overlay</th>
                  {columns.map((c) => <th scope="col" key={c.key}>{c.label}</th>)}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {ordered.map((o, i) => {
                  const row = tableRows[i]!;
                  if (o.kind === 'group') {
                    const g = groups[o.name];
                    return (
                      <tr key={`g-${o.name}`} className="group-row" data-testid={`group-${o.name}`}>
                        <td><input type="checkbox" aria-label={`Overlay group ${o.name}`} checked={selected.has(`group:${o.name}`)} onChange={() => toggle(`group:${o.name}`)} /></td>
                        <th scope="row">{String(row.name)}</th>
                        <td title={o.name}>{String(row.group)}</td>
                        <td>{o.members.map((m) => m.state).join(', ')}</td>
                        <td />
                        <td className="num"><span data-testid="group-best">{fmtMs(g?.valRelL2)}</span><br /><span className="small muted">decoded {fmtMs(g?.valRelL2Decoded)}</span></td>
                        <td />
                        <td />
                        <td />
                        <td />
                        <td />
                        <td />
                        <td />
                      </tr>
                    );
                  }
                  const r = o.run;
                  const canResume = r.state === 'interrupted' || r.state === 'stopped' || r.state === 'paused';
                  const busy = r.state === 'running' || r.state === 'queued' || r.state === 'paused';
                  return (
                    <tr key={r.id} className={o.inGroup ? 'in-group' : undefined} data-testid={`run-row-${r.id}`}>
                      <td><input type="checkbox" aria-label={`Overlay run ${r.name}`} checked={selected.has(`run:${r.id}`)} onChange={() => toggle(`run:${r.id}`)} /></td>
                      <th scope="row">{r.name}</th>
                      <td title={r.group ?? undefined}>{String(row.group)}{r.seed != null && r.group ? ` (seed ${r.seed})` : ''}</td>
                      <td><span className={`state state-${r.state}`} title={r.reason}>{r.state}</span></td>
                      <td className="num">{String(row.epochs)}</td>
                      <td className="num">{fmt(r.bestValRelL2)}</td>
                      <td className="num">{r.bestEpoch ?? '—'}</td>
                      <td className="small">{String(row.diff) || '—'}</td>
                      <td className="small" data-testid="run-tags" title={r.notes}>{(r.tags ?? []).map((t) => <span key={t} className="tag">{t}</span>)}{r.notes ? <span className="muted" aria-label="has notes"> ✎</span> : null}</td>
                      <td className="small">{String(row.created)}</td>
                      <td className="num small" data-testid="run-train-time">{row.train == null ? '—' : formatSeconds(row.train as number)}</td>
                      <td className="num small" data-testid="run-queue-time" title={times(r).estimated ? 'wall time minus train time: queue, start-up and pauses' : undefined}>{row.queue == null ? '—' : formatSeconds(row.queue as number)}</td>
                      <td>
                        <div className="row wrap">
                          {canResume && <button onClick={() => control(r.id, 'resume')} aria-label={`Resume ${r.name}`}>Resume</button>}
                          <button onClick={() => reveal(r.id)} aria-label={`Open the folder of ${r.name}`}>Folder</button>
                          <button onClick={() => setEditing(r.id)} aria-label={`Details of ${r.name}`} title="Notes, tags, checkpoints and Run on a cluster" data-testid="run-notes-open">Details</button>
                          {confirm === r.id ? (
                            <span role="group" aria-label={`Confirm deleting ${r.name}`}>
                              Delete for good? <button onClick={() => remove(r.id)} data-testid="confirm-delete">Delete</button>{' '}
                              <button onClick={() => setConfirm(null)}>Keep</button>
                            </span>
                          ) : (
                            <button onClick={() => setConfirm(r.id)} disabled={busy} title={busy ? 'Stop the run first' : undefined} aria-label={`Delete ${r.name}`}>Delete</button>
                          )}
                        </div>
                        {runErrors[r.id] && <span className="error-message small">{runErrors[r.id]}</span>}
                        {deleteError?.id === r.id && <span className="error-message small" role="alert">{deleteError.text}</span>}
                        {folder?.id === r.id && (
                          <span className={folder.ok ? 'small' : 'error-message small'} role={folder.ok ? 'status' : 'alert'} data-testid="run-folder">
                            {folder.text} {folder.path && <code className="selectable">{folder.path}</code>}
                          </span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <TableExportBar title="Runs" columns={columns} rows={tableRows} />
          {editingRun && (
            <div className="plot-grid">
              <RunNotes run={editingRun} onClose={() => setEditing(null)} />
              <RunCheckpoints run={editingRun} />
            </div>
          )}
          {/* Its own row: a third column would squeeze the checkpoints table under it. */}
          {editingRun && <RunClusterExport run={editingRun} />}
          <RunsCurves selected={selected} />
          <RunsHparams runs={runs} configs={configs} />
        </>
      )}
    </section>
  );
}
