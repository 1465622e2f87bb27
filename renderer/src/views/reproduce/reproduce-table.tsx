// One reproduction table: measured rows, then the paper's reported rows in their own body under a
// "reported (paper)" heading (each row labelled too), then the notes (metric conventions, source),
// with LaTeX/CSV export of the same layout (main/api/reproduce.ts tableRows).
import { useId } from 'react';
import { REPORTED_ROW_LABEL, tableRows, type ReproTable } from '../../../../main/api/reproduce';
import { formatNumber, type Cell, type TableRow } from '../../export/table';
import { TableExportBar } from '../../export/table-export-bar';
import { displayNote } from '../../queries/reproduce';

function show(c: Cell, digits: number): string {
  if (c == null) return '—';
  if (typeof c === 'number') return formatNumber(c, digits, Number.isInteger(c));
  if (typeof c === 'object') return `${formatNumber(c.mean, digits)} ± ${formatNumber(c.std, 2)}`;
  return c;
}

function Rows({ rows, columns, testId }: { rows: TableRow[]; columns: ReproTable['columns']; testId: string }) {
  return (
    <>
      {rows.map((r, i) => (
        <tr key={i} data-testid={testId}>
          {columns.map((c) => (
            <td key={c.key} className={c.align === 'r' ? 'num' : undefined}>{show(r[c.key], c.digits ?? 4)}</td>
          ))}
        </tr>
      ))}
    </>
  );
}

export function ReproduceTable({ table }: { table: ReproTable }) {
  const id = useId();
  const { columns, rows } = tableRows(table);
  const notes = table.notes.map(displayNote).filter(Boolean);
  const measured = rows.slice(0, table.measured.length);
  const reported = rows.slice(table.measured.length);
  return (
    <section className="card" aria-labelledby={`${id}-t`} data-testid="reproduce-table">
      <h3 id={`${id}-t`}>{table.title}</h3>
      <div style={{ overflowX: 'auto' }}>
        <table className="runs-table">
          <thead>
            <tr>{columns.map((c) => <th key={c.key} scope="col">{c.label}</th>)}</tr>
          </thead>
          <tbody data-testid="reproduce-measured">
            <Rows rows={measured} columns={columns} testId="reproduce-measured-row" />
          </tbody>
          {reported.length > 0 && (
            <tbody data-testid="reproduce-reported">
              <tr>
                <th scope="rowgroup" colSpan={columns.length} className="muted">{REPORTED_ROW_LABEL}: published numbers, not measured here</th>
              </tr>
              <Rows rows={reported} columns={columns} testId="reproduce-reported-row" />
            </tbody>
          )}
        </table>
      </div>
      <ul className="muted small">
        {notes.map((n) => <li key={n}>{n}</li>)}
      </ul>
      <TableExportBar title={table.title} columns={columns} rows={rows} latex={{ caption: `${table.title}. ${notes.join('. ')}.` }} />
    </section>
  );
}
