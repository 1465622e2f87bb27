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

/** Finite, non-zero magnitudes of a column's numbers (means and stds alike) that print in fixed form. */
function fixedMagnitudes(rows: TableRow[], key: string): number[] {
  const out: number[] = [];
  for (const r of rows) {
    const c = r[key];
    const vals = typeof c === 'number' ? [c] : c != null && typeof c === 'object' ? [c.mean, c.std] : [];
    for (const v of vals) {
      const a = Math.abs(v);
      if (Number.isFinite(a) && a >= 1e-4 && a < 1e6) out.push(a);
    }
  }
  return out;
}

/**
 * The one rule for a column's digits in a paper table: every fixed-form number of the column gets
 * the same count of decimals, enough for its largest value to show `digits` significant digits
 * and its smallest (a std included) at least two, so "0.3635" stands beside "0.0186", not
 * "0.01862". Null when the column has no such number (whole numbers and exponents format alone).
 */
export function columnDecimals(rows: TableRow[], key: string, digits: number): number | null {
  const a = fixedMagnitudes(rows, key);
  if (a.length === 0 || digits >= 17) return null;
  const exp = (v: number) => Math.floor(Math.log10(v) + 1e-12);
  const forLargest = digits - 1 - exp(Math.max(...a));
  const forSmallest = 1 - exp(Math.min(...a));
  return Math.min(20, Math.max(0, forLargest, forSmallest));
}

/** A number by its column's rule: fixed decimals when given and the value is in fixed range, else formatNumber. */
export function formatInColumn(v: number, digits: number, decimals: number | null, integers = false): string {
  const a = Math.abs(v);
  if (decimals === null || !Number.isFinite(v) || (integers && Number.isInteger(v)) || (a !== 0 && (a < 1e-4 || a >= 1e6))) return formatNumber(v, digits, integers);
  return v.toFixed(decimals);
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

function latexNumber(v: number, digits: number, decimals: number | null, integers = false): string {
  const s = formatInColumn(v, digits, decimals, integers);
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (m) return `$${m[1]} \\times 10^{${m[2] === '-' ? '-' : ''}${Number(m[3])}}$`;
  return s === 'NaN' || s.endsWith('Inf') ? `\\text{${s}}` : s;
}

function latexCell(c: Cell, digits: number, decimals: number | null, bold: boolean, integers: boolean): string {
  if (c == null) return '--';
  let s: string;
  if (typeof c === 'number') s = latexNumber(c, digits, decimals, integers);
  else if (typeof c === 'object') s = `${latexNumber(c.mean, digits, decimals)} $\\pm$ ${latexNumber(c.std, digits, decimals)}`;
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
  const decimals = columns.map((c) => (whole.has(c.key) ? null : columnDecimals(rows, c.key, c.digits ?? 4)));
  rows.forEach((r, i) => {
    out.push(columns.map((c, k) => latexCell(r[c.key], c.digits ?? 4, decimals[k] ?? null, opts.bold?.[c.key] === i, whole.has(c.key))).join(' & ') + ' \\\\');
  });
  out.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return out.join('\n') + '\n';
}
