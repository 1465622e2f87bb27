// A reproduction table as aligned plain text for the terminal: measured rows, a rule, then the
// paper's reported rows (each labelled in the source column), then the notes.
import type { ReproTable } from '../api/reproduce';
import { tableRows } from '../api/reproduce';
import { columnDecimals, formatInColumn, type Cell } from '../api/table';

// The LaTeX export's rule (columnDecimals): one count of decimals per column.
function cell(c: Cell, digits: number, decimals: number | null): string {
  if (c == null) return '-';
  if (typeof c === 'number') return formatInColumn(c, digits, decimals, Number.isInteger(c));
  if (typeof c === 'object') return `${formatInColumn(c.mean, digits, decimals)} ± ${formatInColumn(c.std, digits, decimals)}`;
  return c;
}

export function formatTextTable(t: ReproTable): string {
  const { columns, rows } = tableRows(t);
  const decimals = columns.map((c) => columnDecimals(rows, c.key, c.digits ?? 4));
  const cells = rows.map((r) => columns.map((c, k) => cell(r[c.key], c.digits ?? 4, decimals[k] ?? null)));
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i]!.length)));
  const line = (v: string[]) => v.map((s, i) => (columns[i]!.align === 'r' ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const measured = cells.slice(0, t.measured.length).map(line);
  const reported = cells.slice(t.measured.length).map(line);
  return [t.title, line(columns.map((c) => c.label)), rule, ...measured, ...(reported.length ? [rule, ...reported] : []), ...t.notes.map((n) => `  ${n}`)].join('\n');
}
