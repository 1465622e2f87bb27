// The resolution sweep table: relL2 at every evaluated grid, exportable to LaTeX and CSV.
import { TableExportBar } from '../../export/table-export-bar';
import type { EvaluationResult } from '../../../../main/api/contract';
import { SWEEP_COLUMNS, sweepRows } from './sweep-table';

export function ResolutionSweep({ result, runName }: { result: EvaluationResult; runName: string }) {
  const rows = sweepRows(result);
  const title = `Resolution sweep ${runName}`;
  return (
    <div className="card" data-testid="sweep">
      <table className="stats-table" data-testid="sweep-table">
        <caption className="muted">Resolution sweep: the best checkpoint (epoch {result.epoch}) on the validation split at each grid</caption>
        <thead>
          <tr>{SWEEP_COLUMNS.map((c) => <th key={c.key} scope="col">{c.label}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r.grid)} data-testid={`sweep-row-${r.grid}`}>
              <th scope="row">{r.grid as string}</th>
              <td>{r.role as string}</td>
              <td data-testid="sweep-origin">{r.origin as string}</td>
              <td>{(r.relL2 as number).toPrecision(4)}</td>
              <td>{(r.relL2Decoded as number).toPrecision(4)}</td>
              <td>{r.n as number}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <TableExportBar title={title} columns={SWEEP_COLUMNS} rows={rows} />
    </div>
  );
}
