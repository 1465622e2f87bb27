// A reproduction table as aligned plain text for the terminal: measured rows, a rule, then the
// paper's reported rows (each labelled in the source column), then the notes.
import type { ReproTable } from '../api/reproduce';
import { tableRows } from '../api/reproduce';
import { cellTexts } from '../api/table';

export function formatTextTable(t: ReproTable): string {
  const { columns, rows } = tableRows(t);
  const cells = cellTexts(columns, rows, '-'); // the LaTeX export's rule: one count of decimals per column
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i]!.length)));
  const line = (v: string[]) => v.map((s, i) => (columns[i]!.align === 'r' ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const measured = cells.slice(0, t.measured.length).map(line);
  const reported = cells.slice(t.measured.length).map(line);
  return [t.title, line(columns.map((c) => c.label)), rule, ...measured, ...(reported.length ? [rule, ...reported] : []), ...t.notes.map((n) => `  ${n}`)].join('\n');
}
