// Hyperparameters of the workspace's runs: a sortable table of configuration fields and best
// validation error, and a parallel-coordinates plot of the same (SVG, so it draws without WebGL).
import { useMemo } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { HPARAM_FIELDS, hparamRows, parallelHparams, sortRows } from '../../logic/hparams';
import { usePersisted } from '../../stores/persisted-state';
import { useApp } from '../../stores/app-store';
import { datasetLabels } from '../../queries/dataset-names';
import { ParallelCoordinates } from '../../plots/parallel-coordinates-plot';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn } from '../../export/table';

type Sort = { key: string; dir: 'asc' | 'desc' };
const KEYS = ['name', 'best', ...HPARAM_FIELDS.map((f) => f.key)];
const validSort = (v: unknown): boolean => !!v && typeof v === 'object' && KEYS.includes((v as Sort).key) && ((v as Sort).dir === 'asc' || (v as Sort).dir === 'desc');

const show = (v: number | string | null) => (v == null ? '—' : typeof v === 'number' ? String(Number(v.toPrecision(4))) : v);

export function RunsHparams({ runs, configs }: { runs: RunSummary[]; configs: Record<string, Record<string, unknown>> }) {
  const [sort, setSort] = usePersisted<Sort>('runs.hparamSort', { key: 'best', dir: 'asc' }, validSort);
  const workspace = useApp((s) => s.workspace);
  const rows = useMemo(() => sortRows(hparamRows(runs, configs, datasetLabels(workspace)), sort.key, sort.dir), [runs, configs, sort, workspace]);
  // A kind's own field (FNO's modes) is a column only when some run has it.
  const fields = HPARAM_FIELDS.filter((f) => rows.some((r) => r[f.key] != null));
  const parallel = useMemo(() => parallelHparams(rows), [rows]);
  const columns: TableColumn[] = [
    { key: 'name', label: 'Run' },
    ...fields.map((f) => ({ key: f.key, label: f.label, align: f.kind === 'number' ? ('r' as const) : ('l' as const) })),
    { key: 'best', label: 'Best val relL2 (normalized)', align: 'r' },
  ];
  const by = (key: string) => setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : 'asc' }));
  if (rows.length === 0) return null;
  return (
    <div className="card" data-testid="hparams">
      <h2>Hyperparameters</h2>
      <div className="table-wrap">
        <table className="runs-table" data-testid="hparam-table">
          <caption className="muted">Configuration of every run against its best validation error; click a heading to sort.</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th scope="col" key={c.key} aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button className="link" onClick={() => by(c.key)} data-testid={`hparam-sort-${c.key}`}>{c.label}{sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid={`hparam-row-${r.id}`}>
                <th scope="row">{r.name}</th>
                {fields.map((f) => <td key={f.key} className={f.kind === 'number' ? 'num' : 'small'}>{show(r[f.key]!)}</td>)}
                <td className="num">{show(r.best)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TableExportBar title="Hyperparameters" columns={columns} rows={rows} />
      {parallel
        ? <ParallelCoordinates title="Configuration against best validation error" axes={parallel.axes} rows={parallel.rows} colorBy="best" height={340} testId="hparam-parcoords" />
        : <p className="muted">The parallel-coordinates plot appears once a run has a validation error.</p>}
    </div>
  );
}
