// Tables (runs, ablations, resolution sweeps, reproductions) as CSV (RFC 4180) and LaTeX (booktabs).
// Pure functions with no I/O, importable from the renderer and the CLI alike: the views and
// `lino reproduce` hand over columns and rows, the caller saves the text.

export interface TableColumn {
  key: string;
  label: string;
  /** Right-aligned numbers; left-aligned text (the default). */
  align?: 'l' | 'r' | 'c';
  /** Significant digits for numbers (default 4). */
  digits?: number;
}

export type Cell = string | number | null | undefined | { mean: number; std: number };
export type TableRow = Record<string, Cell>;

/**
 * The one number format of table exports (CSV and LaTeX). `digits` >= 17: the shortest exact round
 * trip (CSV is data). Otherwise exactly `digits` significant digits, trailing zeros kept, so a
 * column reads "0.9630" next to "0.9627", never "0.963"; `integers` (a column holding only whole
 * numbers, e.g. parameter counts) prints them whole. Magnitudes below 1e-4 or from 1e6 go to
 * exponent form; whole parts longer than `digits` are rounded to `digits` figures ("1260").
 */
export function formatNumber(v: number, digits: number, integers = false): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Inf' : '-Inf';
  if (digits >= 17) return String(v); // shortest exact round trip
  if (integers && Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e6)) return v.toExponential(digits - 1);
  if (a !== 0 && Math.floor(Math.log10(a)) >= digits - 1) return String(Number(v.toPrecision(digits)));
  return v.toPrecision(digits);
}

/** Whether every number in a column is whole (printed without decimals). */
function wholeColumn(rows: TableRow[], key: string): boolean {
  const nums = rows.map((r) => r[key]).filter((c): c is number => typeof c === 'number' && Number.isFinite(c));
  return nums.length > 0 && nums.every((v) => Number.isInteger(v)) && rows.every((r) => r[key] == null || typeof r[key] !== 'object');
}

function plainCell(c: Cell, digits: number): string {
  if (c == null) return '';
  if (typeof c === 'number') return formatNumber(c, digits);
  if (typeof c === 'object') return `${formatNumber(c.mean, digits)} ± ${formatNumber(c.std, digits)}`;
  return c;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV (full precision: it is data) with a header row; mean ± std cells become two columns "<label> mean" and "<label> std". */
export function toCsv(columns: TableColumn[], rows: TableRow[]): string {
  const split = new Set(columns.filter((c) => rows.some((r) => r[c.key] != null && typeof r[c.key] === 'object')).map((c) => c.key));
  const header: string[] = [];
  for (const c of columns) {
    if (split.has(c.key)) header.push(`${c.label} mean`, `${c.label} std`);
    else header.push(c.label);
  }
  const lines = [header.map(csvField).join(',')];
  for (const r of rows) {
    const out: string[] = [];
    for (const c of columns) {
      const v = r[c.key];
      const digits = 17;
      if (split.has(c.key)) {
        if (v != null && typeof v === 'object') out.push(formatNumber(v.mean, digits), formatNumber(v.std, digits));
        else out.push(plainCell(v, digits), '');
      } else out.push(plainCell(v, digits));
    }
    lines.push(out.map(csvField).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

const LATEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

export function latexEscape(s: string): string {
  return s.replace(/[\\&%$#_{}~^]/g, (ch) => LATEX_SPECIALS[ch]!);
}

function latexNumber(v: number, digits: number, integers = false): string {
  const s = formatNumber(v, digits, integers);
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (m) return `$${m[1]} \\times 10^{${m[2] === '-' ? '-' : ''}${Number(m[3])}}$`;
  return s === 'NaN' || s.endsWith('Inf') ? `\\text{${s}}` : s;
}

function latexCell(c: Cell, digits: number, bold: boolean, integers: boolean): string {
  if (c == null) return '--';
  let s: string;
  if (typeof c === 'number') s = latexNumber(c, digits, integers);
  else if (typeof c === 'object') s = `${latexNumber(c.mean, digits)} $\\pm$ ${latexNumber(c.std, digits)}`;
  else s = latexEscape(c);
  return bold ? `\\textbf{${s}}` : s;
}

export interface LatexOptions {
  caption?: string;
  label?: string;
  /** Per column key, the row index to print in bold (e.g. the best error). */
  bold?: Record<string, number>;
}

/** A booktabs table (\toprule, \midrule, \bottomrule; needs \usepackage{booktabs}). */
export function toLatex(columns: TableColumn[], rows: TableRow[], opts: LatexOptions = {}): string {
  if (columns.length === 0) throw new Error('toLatex: a table needs at least one column');
  const spec = columns.map((c) => c.align ?? 'l').join('');
  const out: string[] = ['% requires \\usepackage{booktabs}', '\\begin{table}[t]', '\\centering'];
  if (opts.caption) out.push(`\\caption{${latexEscape(opts.caption)}}`);
  if (opts.label) out.push(`\\label{${opts.label.replace(/[^A-Za-z0-9:_-]/g, '-')}}`);
  out.push(`\\begin{tabular}{${spec}}`, '\\toprule');
  out.push(columns.map((c) => latexEscape(c.label)).join(' & ') + ' \\\\');
  out.push('\\midrule');
  const whole = new Set(columns.filter((c) => wholeColumn(rows, c.key)).map((c) => c.key));
  rows.forEach((r, i) => {
    out.push(columns.map((c) => latexCell(r[c.key], c.digits ?? 4, opts.bold?.[c.key] === i, whole.has(c.key))).join(' & ') + ' \\\\');
  });
  out.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return out.join('\n') + '\n';
}
