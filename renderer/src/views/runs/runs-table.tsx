// The Runs view's table: a row per seed group (mean ± std of its runs' best errors) with its runs
// under it, then ungrouped runs; overlay checkboxes, and per run Resume, Folder, Details and
// Delete (with a confirmation). Exported to LaTeX / CSV as shown.
import { useRelL2Headline } from '../../queries/rell2-headline';
import { useState } from 'react';
import type { Result, RunSummary } from '../../../../main/api/contract';
import { useTraining } from '../../stores/training-store';
import { groupLabel } from '../../logic/ablation-plan';
import { revealRun } from '../../queries/run-actions';
import { errorText } from '../../api/error-text';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';
import type { useRunsRows } from './use-runs-rows';
import { RunRow, type RunMessage } from './run-row';
import { kindsOf } from '../../logic/model-kind';
import { bestStats, groupStatsOver, meanStdCell, meanStdText, statesText } from '../../logic/run-filter';
import { plural } from '../../../../main/api/dataset-name';

type Group = Result<'runs.group'>;
/** A group's numbers over the runs the filter shows, and how many seeds that is. */
type ShownGroup = ReturnType<typeof groupStatsOver>;

const COLUMNS: TableColumn[] = [
  { key: 'name', label: 'Run' },
  { key: 'group', label: 'Group' },
  { key: 'model', label: 'Model' },
  { key: 'state', label: 'Status' },
  { key: 'epochs', label: 'Epochs', align: 'r' },
  { key: 'params', label: 'Parameters', align: 'r' },
  { key: 'best', label: 'Best val relL2 (normalized)', align: 'r' },
  { key: 'test', label: 'Test relL2 (normalized, at best val)', align: 'r' },
  { key: 'bestEpoch', label: 'Best epoch', align: 'r' },
  { key: 'diff', label: 'Configuration differences' },
  { key: 'tags', label: 'Tags' },
  { key: 'created', label: 'Created' },
  { key: 'wall', label: 'Wall time (s)', align: 'r', digits: 4 },
  { key: 'train', label: 'Train time (s)', align: 'r', digits: 4 },
  { key: 'queue', label: 'Queued (s)', align: 'r', digits: 4 },
];
/**
 * Columns a window under 1600 px wide leaves out (styles.css '.wide-only'), so the table fits 1366 px
 * beside the sidebar: the wall time's tooltip gives train and queue time, the export keeps all three.
 */
export const WIDE_ONLY = new Set(['created', 'train', 'queue']);
const wideOnly = (key: string) => (WIDE_ONLY.has(key) ? 'wide-only' : undefined);

export interface RunsTableProps {
  runs: RunSummary[];
  data: ReturnType<typeof useRunsRows>;
  selected: Set<string>;
  onToggle(key: string): void;
  onDeleted(id: string): void;
  onDetails(id: string): void;
}

export function RunsTable({ runs, data, selected, onToggle, onDeleted, onDetails }: RunsTableProps) {
  const deleteRun = useTraining((s) => s.deleteRun);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [folder, setFolder] = useState<RunMessage | null>(null);
  const [deleteError, setDeleteError] = useState<RunMessage | null>(null);
  const { ordered, groups, diffs, times, wall, shown } = data;
  const headline = useRelL2Headline();
  const label = (g: string) => groupLabel(g, runs);
  const shownIds = new Set(shown.map((r) => r.id));
  const stats: Record<string, ShownGroup | undefined> = Object.fromEntries(Object.entries(groups).map(([g, v]) => [g, groupStatsOver(v as Group, shownIds)]));
  const seedsOf = (o: { name: string; members: RunSummary[] }) => stats[o.name]?.n ?? o.members.length;
  const tableRows: TableRow[] = ordered.map((o) =>
    o.kind === 'bucket'
      ? { name: `${o.name} (${o.members.length} runs)`, model: kindsOf(o.members), group: '', state: '', epochs: null, params: null, best: bestStats(o.members)?.mean ?? null, test: null, bestEpoch: null, diff: '', tags: '', created: '', wall: null, train: null, queue: null }
      : o.kind === 'group'
      ? { name: `${label(o.name)} (${plural(o.members.length, 'seed')})`, model: kindsOf(o.members), group: label(o.name), state: '', epochs: null, params: null, best: meanStdCell(stats[o.name]?.valRelL2, seedsOf(o)), test: meanStdCell(stats[o.name]?.testRelL2, seedsOf(o)), bestEpoch: null, diff: '', tags: '', created: '', wall: null, train: null, queue: null }
      : { name: o.run.name, model: kindsOf([o.run]), group: o.run.group ? label(o.run.group) : '', state: o.run.state, epochs: `${o.run.epochsDone}/${o.run.epochs ?? '?'}`, params: o.run.params ?? null, best: o.run.bestValRelL2, test: o.run.bestTestRelL2 ?? null, bestEpoch: o.run.bestEpoch, diff: diffs[o.run.id] ?? '', tags: (o.run.tags ?? []).join(' '), created: o.run.createdAt.replace('T', ' ').slice(0, 19), wall: wall(o.run), train: times(o.run).train, queue: times(o.run).queue },
  );

  const reveal = async (id: string) => {
    try {
      const r = await revealRun(id);
      setFolder({ id, text: r.opened ? 'Opened in the file manager:' : 'Run folder:', path: r.path, ok: true });
    } catch (e) {
      setFolder({ id, text: `Could not open the folder: ${errorText(e)}`, ok: false });
    }
  };
  const remove = async (id: string) => {
    setDeleteError(null);
    try {
      await deleteRun(id);
      onDeleted(id);
      setConfirm(null);
    } catch (e) {
      setDeleteError({ id, text: `Could not delete: ${errorText(e)}`, ok: false });
    }
  };

  return (
    <>
      <div className="table-wrap">
        <table className="runs-table compact-table" data-testid="runs-table">
          <caption className="muted">Select runs or groups to overlay their validation curves. Differences list only the settings that are not the same in every run. A group's best shows the headline relL2 ({headline}, the Workspace setting) above the other; a run's is normalized.</caption>
          <thead>
            <tr>
              <th scope="col">Overlay</th>
              {COLUMNS.map((c) => <th scope="col" key={c.key} className={wideOnly(c.key)}>{c.label}</th>)}
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {ordered.map((o, i) =>
              o.kind === 'bucket' ? (
                <BucketRow key={`b-${o.name}`} name={o.name} members={o.members} />
              ) : o.kind === 'group' ? (
                <GroupRow key={`g-${o.name}`} name={o.name} members={o.members} row={tableRows[i]!} group={stats[o.name]} checked={selected.has(`group:${o.name}`)} onToggle={() => onToggle(`group:${o.name}`)} />
              ) : (
                <RunRow
                  key={o.run.id}
                  run={o.run}
                  inGroup={o.inGroup}
                  row={tableRows[i]!}
                  estimated={times(o.run).estimated}
                  checked={selected.has(`run:${o.run.id}`)}
                  onToggle={() => onToggle(`run:${o.run.id}`)}
                  confirming={confirm === o.run.id}
                  onConfirm={(yes) => setConfirm(yes ? o.run.id : null)}
                  onDelete={() => void remove(o.run.id)}
                  onReveal={() => void reveal(o.run.id)}
                  onDetails={() => onDetails(o.run.id)}
                  folder={folder?.id === o.run.id ? folder : null}
                  deleteError={deleteError?.id === o.run.id ? deleteError.text : null}
                />
              ),
            )}
          </tbody>
        </table>
      </div>
      <TableExportBar title="Runs" columns={COLUMNS} rows={tableRows} />
    </>
  );
}

function GroupRow({ name, members, row, group, checked, onToggle }: { name: string; members: RunSummary[]; row: TableRow; group: ShownGroup | undefined; checked: boolean; onToggle(): void }) {
  const n = group?.n ?? members.length;
  const headline = useRelL2Headline(); // the group's best in the workspace's headline convention, the other below it
  const fmtMs = (s: { mean: number; std: number } | null | undefined) => meanStdText(s ?? null, n);
  return (
    <tr className="group-row" data-testid={`group-${name}`}>
      <td><input type="checkbox" aria-label={`Overlay group ${name}`} checked={checked} onChange={onToggle} /></td>
      <th scope="row">{String(row.name)}</th>
      <td className="group-cell" title={name}>{String(row.group)}</td>
      <td>{String(row.model)}</td>
      <td>{statesText(members)}</td>
      <td />
      <td />
      <td className="num"><span data-testid="group-best">{fmtMs(headline === 'decoded' ? group?.valRelL2Decoded : group?.valRelL2)}</span><br /><span className="small muted">{headline === 'decoded' ? 'normalized' : 'decoded'} {fmtMs(headline === 'decoded' ? group?.valRelL2 : group?.valRelL2Decoded)}</span></td>
      <td className="num" data-testid="group-test" title={group && !group.testRelL2 ? 'Not every seed has a test error (data without a test split, or a run still in its first epoch)' : undefined}>{fmtMs(group?.testRelL2)}</td>
      {COLUMNS.slice(COLUMNS.findIndex((c) => c.key === 'bestEpoch')).map((c) => <td key={c.key} className={wideOnly(c.key)} />)}
      <td />
    </tr>
  );
}

/** A grouping's heading row: the value, how many runs, the mean ± std of their best errors. */
function BucketRow({ name, members }: { name: string; members: RunSummary[] }) {
  const s = bestStats(members);
  return (
    <tr className="group-row" data-testid="runs-bucket">
      <td />
      <th scope="rowgroup" colSpan={6}>{name} <span className="muted small">({members.length} run{members.length === 1 ? '' : 's'}, {kindsOf(members)})</span></th>
      <td className="num" data-testid="bucket-best">{s ? `${s.mean.toPrecision(4)} ± ${s.std.toPrecision(2)}` : '—'}</td>
      <td colSpan={COLUMNS.length - 6} />
    </tr>
  );
}
