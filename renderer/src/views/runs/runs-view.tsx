import { useEffect, useMemo, useState } from 'react';
import { useTraining } from '../../stores/training-store';
import { usePersisted } from '../../stores/persisted-state';
import { ImportCheckpointCard } from '../../components/import-checkpoint-card';
import { RunsCurves } from './runs-curves';
import { RunNotes } from './run-notes';
import { RunsHparams } from './runs-hparams';
import { RunCheckpoints } from './run-checkpoints';
import { RunClusterExport } from './run-cluster-export';
import { ReportButton } from '../../export/report-button';
import { RunsTable } from './runs-table';
import { useRunsRows } from './use-runs-rows';
import { scopeSelection, type GroupBy } from '../../logic/run-filter';

/** Restored overlay picks: a short list of 'run:'/'group:' keys. */
function validPicks(v: unknown): boolean {
  return Array.isArray(v) && v.length <= 200 && v.every((k) => typeof k === 'string' && k.length <= 220 && /^(run|group):/.test(k));
}

/** All runs and seed groups: what differs, best errors, state; overlay curves, resume, delete. */
export function RunsView() {
  const runs = useTraining((s) => s.runs);
  const curves = useTraining((s) => s.curves);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const loadHistory = useTraining((s) => s.loadHistory);
  // Overlay picks ('run:<id>', 'group:<name>') survive a reload with the workspace's UI state.
  const [picked, setPicked] = usePersisted<string[]>('runs.overlay', [], validPicks);
  const selected = useMemo(() => new Set(picked), [picked]);
  const [editing, setEditing] = useState<string | null>(null);
  // Search words (and "tag:x") and the tag filter survive a reload like the overlay picks.
  const [query, setQuery] = usePersisted<string>('runs.search', '', (v) => typeof v === 'string' && v.length <= 200);
  const [tagFilter, setTagFilter] = usePersisted<string>('runs.tag', '', (v) => typeof v === 'string' && v.length <= 32);
  const [groupBy, setGroupBy] = usePersisted<GroupBy>('runs.groupBy', '', (v) => typeof v === 'string' && v.length <= 200 && /^(|tag|dataset|config:[\w.]+)$/.test(v));
  const data = useRunsRows(runs, query, tagFilter, groupBy);
  const { tags, shown, configs, loadError, groupKeys } = data;
  // every panel follows the filter: the curves draw the picks among the runs shown
  const shownPicks = useMemo(() => scopeSelection(selected, shown), [selected, shown]);
  const editingRun = runs.find((r) => r.id === editing);

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  const toggle = (key: string) => setPicked((p) => (p.includes(key) ? p.filter((k) => k !== key) : [...p, key]));

  // Curves of what is selected: runs ('run:<id>') and groups ('group:<name>').
  useEffect(() => {
    for (const key of selected) {
      const ids = key.startsWith('run:') ? [key.slice(4)] : runs.filter((r) => r.group === key.slice(6)).map((r) => r.id);
      for (const id of ids) if (!curves[id]) void loadHistory(id);
    }
  }, [selected, runs]);

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
              <input type="search" data-testid="runs-search" value={query} onChange={(e) => setQuery(e.target.value.slice(0, 200))} placeholder="words, tag:x, width=8, dataset:darcy" title="Words match anywhere; tag:x a tag; key=value a config field (width=8, model.kind=fno, lr=0.001); dataset:x the data's name" />
            </label>
            <label className="small">Tag{' '}
              <select data-testid="runs-tag-filter" value={tags.includes(tagFilter) ? tagFilter : ''} onChange={(e) => setTagFilter(e.target.value)}>
                <option value="">any</option>
                {tags.map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
            </label>
            <label className="small">Group by{' '}
              <select data-testid="runs-group-by" value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy)}>
                <option value="">seed groups</option>
                <option value="dataset">dataset</option>
                <option value="tag">tag</option>
                {[...new Set([...groupKeys, ...(groupBy.startsWith('config:') ? [groupBy.slice(7)] : [])])].map((k) => <option key={k} value={`config:${k}`}>{k}</option>)}
              </select>
            </label>
            <span className="muted small" data-testid="runs-shown">{shown.length} of {runs.length} runs</span>
          </div>
          <RunsTable runs={runs} data={data} selected={selected} onToggle={toggle} onDetails={setEditing} onDeleted={(id) => setPicked((p) => p.filter((k) => k !== `run:${id}`))} />
          {editingRun && (
            <div className="plot-grid">
              <RunNotes run={editingRun} onClose={() => setEditing(null)} />
              <RunCheckpoints run={editingRun} />
            </div>
          )}
          {editingRun && (
            <div className="card"><ReportButton kind="run" id={editingRun.id} label={editingRun.name} /></div>
          )}
          {/* Its own row: a third column would squeeze the checkpoints table under it. */}
          {editingRun && <RunClusterExport run={editingRun} />}
          <RunsCurves selected={shownPicks} shown={shown} />
          <RunsHparams runs={shown} configs={configs} />
        </>
      )}
    </section>
  );
}
