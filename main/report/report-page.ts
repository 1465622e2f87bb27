// The offline report's page: one self-contained HTML file (inline CSS and SVG, no script, no link,
// no font or image fetched), so it opens on a cluster without internet and prints to PDF as it is.
// Every report (run, sweep, reproduction) is a title, a list of key-value facts and sections.
import { cellTexts, relL2Note, type TableColumn, type TableRow } from '../api/table';
import { escapeXml } from './svg-chart';

export interface ReportSection {
  heading: string;
  /** Already-built HTML (tables, <svg> figures, paragraphs). */
  html: string;
}

export interface Report {
  /** 'run', 'sweep', 'reproduction'. */
  kind: string;
  title: string;
  /** Facts at the top: id, dates, state. */
  facts: [string, string][];
  sections: ReportSection[];
}

export const esc = escapeXml;

const CSS = `body{font-family:system-ui,sans-serif;max-width:980px;margin:24px auto;padding:0 16px;color:#222;font-size:14px}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;border-bottom:1px solid #ccc;padding-bottom:3px;margin-top:28px;page-break-after:avoid}
table{border-collapse:collapse;margin:8px 0;font-size:12.5px}th,td{border:1px solid #ccc;padding:3px 7px;vertical-align:top}
th{background:#f3f3f3;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}
.muted{color:#666;font-size:12px}.figures{display:flex;flex-wrap:wrap;gap:12px}svg.figure{border:1px solid #ddd;page-break-inside:avoid}
.tag{display:inline-block;background:#e8eef8;border-radius:3px;padding:0 6px;margin-right:4px}
@media print{body{margin:0;max-width:none}}`;

/** A table with its relL2 convention named under it (relL2Note) when a column is a relL2. */
export function tableHtml(columns: TableColumn[], rows: TableRow[], caption?: string): string {
  const head = columns.map((c) => `<th scope="col">${esc(c.label)}</th>`).join('');
  const texts = cellTexts(columns, rows, '—'); // the exports' number rule, column by column
  const body = rows.map((r, i) => `<tr>${columns.map((c, k) => {
    const v = r[c.key];
    const numeric = typeof v === 'number' || (v != null && typeof v === 'object');
    return `<td${numeric ? ' class="num"' : ''}>${esc(texts[i]![k]!)}</td>`;
  }).join('')}</tr>`).join('');
  const note = relL2Note(columns);
  return `<table>${caption ? `<caption>${esc(caption)}</caption>` : ''}<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${note ? `<p class="muted">${esc(note)}</p>` : ''}`;
}

/** Key-value rows (configuration, environment, provenance). */
export function factsHtml(facts: [string, string][]): string {
  return `<table>${facts.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

/** A JSON value as a readable block. */
export const jsonHtml = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

export const figuresHtml = (svgs: string[]) => `<div class="figures">${svgs.join('')}</div>`;

/** Notes and tags the user wrote (runs.annotate), as text. */
export function notesHtml(notes: string, tags: string[]): string {
  const t = tags.length ? `<p>${tags.map((x) => `<span class="tag">${esc(x)}</span>`).join('')}</p>` : '<p class="muted">No tags.</p>';
  return `${t}${notes ? `<pre>${esc(notes)}</pre>` : '<p class="muted">No notes.</p>'}`;
}

/** The whole file. */
export function reportHtml(r: Report, generatedAt = new Date()): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="generator" content="LiNO Workbench report (${esc(r.kind)})">
<title>${esc(r.title)}</title><style>${CSS}</style></head>
<body data-report="${esc(r.kind)}">
<h1>${esc(r.title)}</h1>
<p class="muted">LiNO Workbench ${esc(r.kind)} report, written ${esc(generatedAt.toISOString())}. Self-contained: no script, nothing fetched.</p>
${factsHtml(r.facts)}
${r.sections.map((s) => `<section><h2>${esc(s.heading)}</h2>\n${s.html}</section>`).join('\n')}
</body></html>
`;
}
