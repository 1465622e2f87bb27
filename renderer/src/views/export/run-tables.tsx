// The Export view's tables: every run, and the seed groups (mean ± std over seeds, the best in
// bold), each as LaTeX (booktabs) and CSV.
import { useEffect, useMemo } from 'react';
import { useTraining } from '../../stores/training-store';
import { firstError, useRunGroups } from '../../stores/runs-cache';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';
import { kindsOf } from '../../logic/model-kind';
import { groupLabel } from '../../logic/ablation-plan';
import { meanStdCell, meanStdText } from '../../logic/run-filter';


export function RunTables() {
  const runs = useTraining((s) => s.runs);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  const groupNames = useMemo(() => [...new Set(runs.map((r) => r.group).filter((g): g is string => !!g))].sort(), [runs]);
  const entries = useRunGroups(groupNames);
  const groups = groupNames.flatMap((g) => (entries[g]?.value ? [entries[g]!.value!] : []));
  const problem = firstError(groupNames.map((g) => entries[g]));
  const error = problem ? `Could not summarize the groups: ${problem}` : null;

  const runColumns: TableColumn[] = [
    { key: 'name', label: 'Run' },
    { key: 'group', label: 'Group' },
    { key: 'model', label: 'Model' },
    { key: 'seed', label: 'Seed', align: 'r' },
    { key: 'state', label: 'Status' },
    { key: 'epochs', label: 'Epochs', align: 'r' },
    { key: 'best', label: 'Best val relL2 (normalized)', align: 'r' },
    { key: 'bestEpoch', label: 'Best epoch', align: 'r' },
  ];
  // groups by their names (an ablation's base and variant, a seed group's configuration), never an id
  const label = (g: string) => groupLabel(g, runs);
  const runRows: TableRow[] = runs.map((r) => ({ name: r.name, model: kindsOf([r]), group: r.group ? label(r.group) : '', seed: r.seed, state: r.state, epochs: r.epochsDone, best: r.bestValRelL2, bestEpoch: r.bestEpoch }));
  const groupColumns: TableColumn[] = [
    { key: 'group', label: 'Group' },
    { key: 'n', label: 'Runs', align: 'r' },
    { key: 'val', label: 'Val relL2 (normalized)', align: 'r' },
    { key: 'valDecoded', label: 'Val relL2 (decoded)', align: 'r' },
    { key: 'test', label: 'Test relL2 (normalized)', align: 'r' },
  ];
  const groupRows: TableRow[] = groups.map((g) => ({ group: label(g.group), n: g.runs.length, val: meanStdCell(g.valRelL2, g.runs.length), valDecoded: meanStdCell(g.valRelL2Decoded, g.runs.length), test: meanStdCell(g.testRelL2, g.runs.length) }));
  // The best (lowest) mean validation error in bold, as papers mark it.
  // a group's cell: mean ± std over several seeds, the number alone over one
  const meanOf = (c: unknown) => (typeof c === 'number' ? c : (c as { mean: number } | null)?.mean);
  const bestGroup = groupRows.reduce<number>((b, r, i) => {
    const v = meanOf(r.val);
    const bv = b >= 0 ? meanOf(groupRows[b]!.val) : undefined;
    return v != null && (bv == null || v < bv) ? i : b;
  }, -1);

  return (
    <div className="card" role="region" aria-labelledby="export-tables-title">
      <h2 id="export-tables-title">Tables</h2>
      {error && <p className="error-message" role="alert">{error}</p>}
      <h3>Runs ({runs.length})</h3>
      {runs.length === 0 ? <p className="muted">No runs yet.</p> : <TableExportBar title="Runs table" columns={runColumns} rows={runRows} />}
      <h3>Seed groups ({groups.length})</h3>
      {groups.length === 0 ? (
        <p className="muted">No seed groups yet (start a run with several seeds from the Training view).</p>
      ) : (
        <>
          <table className="runs-table" data-testid="groups-preview">
            <caption className="muted">Best validation error per run, over each group's seeds</caption>
            <thead>
              <tr>{groupColumns.map((c) => <th scope="col" key={c.key}>{c.label}</th>)}</tr>
            </thead>
            <tbody>
              {groups.map((g, i) => (
                <tr key={g.group}>
                  <th scope="row" title={g.group}>{i === bestGroup ? <strong>{label(g.group)}</strong> : label(g.group)}</th>
                  <td className="num">{g.runs.length}</td>
                  <td className="num">{meanStdText(g.valRelL2, g.runs.length)}</td>
                  <td className="num">{meanStdText(g.valRelL2Decoded, g.runs.length)}</td>
                  <td className="num">{meanStdText(g.testRelL2, g.runs.length)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <TableExportBar title="Seed groups" columns={groupColumns} rows={groupRows} latex={bestGroup >= 0 ? { bold: { val: bestGroup } } : undefined} />
        </>
      )}
      <p className="muted small">LaTeX tables use booktabs (<code>\usepackage{'{booktabs}'}</code>); groups print as mean ± std over their seeds. CSV keeps full precision, mean and std in two columns.</p>
    </div>
  );
}
