// Tables (runs, ablations, resolution sweeps, reproductions) as CSV (RFC 4180) and LaTeX (booktabs).
// Pure functions with no I/O, importable from the renderer and the CLI alike: the views and
// `lino reproduce` hand over columns and rows, the caller saves the text.

export interface TableColumn {
  key: string;
  label: string;
  /** Right-aligned numbers; left-aligned text (the default). */
  align?: 'l' | 'r' | 'c';
  /** Significant digits for numbers (default 4; never fewer than 3, more where rows would print alike). */
  digits?: number;
  /** A signed difference: positive numbers keep their "+" ("+2.41", vs full). */
  signed?: boolean;
}

/** No exported number shows fewer significant digits than this (0.0042 prints 0.00420). */
export const MIN_SIGNIFICANT = 3;
/** The most decimals (fixed form) or significant digits (exponent form) a column grows to so that rows that differ print differently. */
const MAX_DISTINGUISHING = 12;

/** What each relL2 convention means: captions of exported tables name the ones their columns use. */
export const RELL2_CONVENTIONS = {
  normalized: 'on the normalized fields the model is trained on',
  decoded: 'on the decoded fields, in physical units',
} as const;

/**
 * The caption's sentence naming the relL2 conventions the columns use ("relL2 = ||prediction -
 * truth|| / ||truth|| per sample; normalized: ...; decoded: ..."), or null when no column is a relL2.
 */
export function relL2Note(columns: TableColumn[]): string | null {
  const labels = columns.map((c) => c.label).filter((l) => /rel\s?L2/i.test(l));
  if (!labels.length) return null;
  const used = (Object.keys(RELL2_CONVENTIONS) as (keyof typeof RELL2_CONVENTIONS)[]).filter((k) => labels.some((l) => l.toLowerCase().includes(k)));
  return `relL2 = ||prediction - truth|| / ||truth|| per sample${used.map((k) => `; ${k}: ${RELL2_CONVENTIONS[k]}`).join('')}.`;
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

/** A column's numbers that rows are told apart by: plain numbers and means (not stds). */
function rowValues(rows: TableRow[], key: string): number[] {
  return rows.flatMap((r) => {
    const c = r[key];
    const v = typeof c === 'number' ? c : c != null && typeof c === 'object' ? c.mean : NaN;
    return Number.isFinite(v) ? [v] : [];
  });
}

/** Whether two different values print alike under `print`. */
function collide(values: number[], print: (v: number) => string): boolean {
  const seen = new Map<string, number>();
  for (const v of values) {
    const s = print(v);
    if (seen.has(s) && seen.get(s) !== v) return true;
    seen.set(s, v);
  }
  return false;
}

const inFixedRange = (v: number) => { const a = Math.abs(v); return a === 0 || (a >= 1e-4 && a < 1e6); };

/**
 * The one rule for a column's digits in a paper table: every fixed-form number of the column gets
 * the same count of decimals, enough for its largest value to show `digits` significant digits
 * and its smallest (a std included) at least MIN_SIGNIFICANT, so "0.36350" stands beside "0.00420";
 * and more while two rows that differ would print alike (5.91e-3 and 5.94e-3 are never both 0.0059).
 * Null when the column has no such number (whole numbers and exponents format alone).
 */
export function columnDecimals(rows: TableRow[], key: string, digits: number): number | null {
  const a = fixedMagnitudes(rows, key);
  if (a.length === 0 || digits >= 17) return null;
  const exp = (v: number) => Math.floor(Math.log10(v) + 1e-12);
  const forLargest = Math.max(digits, MIN_SIGNIFICANT) - 1 - exp(Math.max(...a));
  const forSmallest = MIN_SIGNIFICANT - 1 - exp(Math.min(...a));
  let d = Math.min(20, Math.max(0, forLargest, forSmallest));
  const fixed = rowValues(rows, key).filter(inFixedRange);
  while (d < Math.max(MAX_DISTINGUISHING, forSmallest) && collide(fixed, (v) => v.toFixed(d))) d++;
  return d;
}

/** The significant digits of a column's exponent-form numbers: `digits` (at least MIN_SIGNIFICANT), more while rows that differ would print alike. */
export function columnDigits(rows: TableRow[], key: string, digits: number): number {
  if (digits >= 17) return digits;
  let d = Math.max(digits, MIN_SIGNIFICANT);
  const exps = rowValues(rows, key).filter((v) => !inFixedRange(v));
  while (d < MAX_DISTINGUISHING && collide(exps, (v) => v.toExponential(d - 1))) d++;
  return d;
}

/** A number by its column's rule: fixed decimals when given and the value is in fixed range, else formatNumber. */
export function formatInColumn(v: number, digits: number, decimals: number | null, integers = false): string {
  const a = Math.abs(v);
  if (decimals === null || !Number.isFinite(v) || (integers && Number.isInteger(v)) || (a !== 0 && (a < 1e-4 || a >= 1e6))) return formatNumber(v, digits, integers);
  return v.toFixed(decimals);
}

/** "+" before a positive number of a signed column (a difference). */
const sign = (v: number, signed: boolean | undefined) => (signed && v > 0 ? '+' : '');

function plainCell(c: Cell, digits: number, signed?: boolean): string {
  if (c == null) return '';
  if (typeof c === 'number') return sign(c, signed) + formatNumber(c, digits);
  if (typeof c === 'object') return `${sign(c.mean, signed)}${formatNumber(c.mean, digits)} ± ${formatNumber(c.std, digits)}`;
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
        if (v != null && typeof v === 'object') out.push(sign(v.mean, c.signed) + formatNumber(v.mean, digits), formatNumber(v.std, digits));
        else out.push(plainCell(v, digits, c.signed), '');
      } else out.push(plainCell(v, digits, c.signed));
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

function latexCell(c: Cell, digits: number, decimals: number | null, bold: boolean, integers: boolean, signed?: boolean): string {
  if (c == null) return '--';
  let s: string;
  if (typeof c === 'number') s = sign(c, signed) + latexNumber(c, digits, decimals, integers);
  else if (typeof c === 'object') s = `${sign(c.mean, signed)}${latexNumber(c.mean, digits, decimals)} $\\pm$ ${latexNumber(c.std, digits, decimals)}`;
  else s = latexEscape(c);
  return bold ? `\\textbf{${s}}` : s;
}

/** One cell as plain text by its column's rule (the LaTeX export's digits), a signed column's "+" kept. */
function textCell(c: Cell, digits: number, decimals: number | null, integers: boolean, signed: boolean | undefined, none: string): string {
  if (c == null) return none;
  if (typeof c === 'number') return sign(c, signed) + formatInColumn(c, digits, decimals, integers);
  if (typeof c === 'object') return `${sign(c.mean, signed)}${formatInColumn(c.mean, digits, decimals)} ± ${formatInColumn(c.std, digits, decimals)}`;
  return c;
}

/**
 * Every cell as plain text with the LaTeX export's rule (one count of decimals per column, never
 * under 3 significant digits, rows that differ print differently, signs kept): the tables a view
 * draws or a terminal prints read as their exports do. `none` stands for an empty cell.
 */
export function cellTexts(columns: TableColumn[], rows: TableRow[], none = '–'): string[][] {
  const whole = columns.map((c) => wholeColumn(rows, c.key));
  const decimals = columns.map((c, k) => (whole[k] ? null : columnDecimals(rows, c.key, c.digits ?? 4)));
  const digits = columns.map((c) => columnDigits(rows, c.key, c.digits ?? 4));
  return rows.map((r) => columns.map((c, k) => textCell(r[c.key], digits[k]!, decimals[k] ?? null, whole[k]!, c.signed, none)));
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
  const caption = [opts.caption, relL2Note(columns)].filter(Boolean).join(' ');
  if (caption) out.push(`\\caption{${latexEscape(caption)}}`);
  if (opts.label) out.push(`\\label{${opts.label.replace(/[^A-Za-z0-9:_-]/g, '-')}}`);
  out.push(`\\begin{tabular}{${spec}}`, '\\toprule');
  out.push(columns.map((c) => latexEscape(c.label)).join(' & ') + ' \\\\');
  out.push('\\midrule');
  const whole = new Set(columns.filter((c) => wholeColumn(rows, c.key)).map((c) => c.key));
  const decimals = columns.map((c) => (whole.has(c.key) ? null : columnDecimals(rows, c.key, c.digits ?? 4)));
  const digits = columns.map((c) => columnDigits(rows, c.key, c.digits ?? 4));
  rows.forEach((r, i) => {
    out.push(columns.map((c, k) => latexCell(r[c.key], digits[k]!, decimals[k] ?? null, opts.bold?.[c.key] === i, whole.has(c.key), c.signed)).join(' & ') + ' \\\\');
  });
  out.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return out.join('\n') + '\n';
}
