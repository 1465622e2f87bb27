// The ablation's results table (the paper's Table 3): per variant, finished seeds, best validation
// relL2 (mean ± std over seeds, both conventions), parameters and the difference to the full model;
// exported to LaTeX / CSV.
import type { RunSummary } from '../../../../main/api/contract';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';
import { formatMeanStd, formatPercent, percentDiff, type paperReference } from '../../logic/ablation-results';
import type { VariantKey } from '../../logic/ablation-plan';
import { MEASURED_ROW_LABEL, REPORTED_ROW_LABEL, SOURCE_COLUMN } from '../../../../main/api/reproduce';
import type { AblationRow } from './use-ablation-plan';

export type PaperReference = ReturnType<typeof paperReference>;

const fmtMs = formatMeanStd;

export interface AblationTableProps {
  ablationKey: string;
  rows: AblationRow[];
  seeds: number;
  paper: PaperReference;
  /** Parameter counts estimated with the error-field evaluation. */
  params: Partial<Record<VariantKey, number>> | null;
  /** The LaTeX caption: what was run (ablationCaption). */
  caption: string;
}

export function AblationTable({ ablationKey, rows, seeds, paper, params, caption }: AblationTableProps) {
  const columns: TableColumn[] = [
    { key: 'variant', label: 'Variant' },
    { key: 'off', label: 'Component off' },
    { key: 'seeds', label: 'Seeds done', align: 'r' },
    { key: 'norm', label: 'Best val relL2 (normalized)', align: 'r' },
    { key: 'decoded', label: 'Best val relL2 (decoded)', align: 'r' },
    { key: 'params', label: 'Parameters', align: 'r' },
    { key: 'diff', label: 'vs full (%, normalized relL2)', align: 'r', digits: 3, signed: true },
  ];
  // The paper's numbers are rows of their own, labelled and after the measured ones (never a column beside them).
  const reportedRows: TableRow[] = paper ? rows.map((r) => ({ source: REPORTED_ROW_LABEL, variant: r.variant.label, off: r.variant.off, norm: paper.values[r.variant.key] })) : [];
  const fullRow = rows.find((r) => r.variant.key === 'full');
  // The runs' own parameter count when the engine records it (RunSummary.params), else the
  // estimate made with the error-field evaluation.
  const paramsFor = (r: AblationRow) => recordedParams(r.members) ?? params?.[r.variant.key] ?? null;
  const tableRows: TableRow[] = rows.map((r) => ({
    variant: r.variant.label,
    off: r.variant.off,
    seeds: `${r.agg.done}/${r.agg.total || seeds}`,
    norm: r.agg.valRelL2 ? { mean: r.agg.valRelL2.mean, std: r.agg.valRelL2.std } : null,
    decoded: r.agg.valRelL2Decoded ? { mean: r.agg.valRelL2Decoded.mean, std: r.agg.valRelL2Decoded.std } : null,
    params: paramsFor(r),
    diff: r.variant.key === 'full' ? null : percentDiff(r.agg.valRelL2?.mean, fullRow?.agg.valRelL2?.mean),
  }));
  const exportColumns: TableColumn[] = paper ? [SOURCE_COLUMN, ...columns] : columns;
  const exportRows: TableRow[] = paper ? [...tableRows.map((r) => ({ ...r, source: MEASURED_ROW_LABEL })), ...reportedRows] : tableRows;
  // The lowest normalized mean is printed in bold in the LaTeX table, as in the paper.
  const bestRow = rows.reduce((best, r, i) => (r.agg.valRelL2 && (best < 0 || r.agg.valRelL2.mean < rows[best]!.agg.valRelL2!.mean) ? i : best), -1);

  return (
    <>
      <div className="table-wrap">
        <table className="runs-table" data-testid="ablation-table">
          <caption className="muted">Best validation relL2 per seed, mean ± std over the finished seeds (both conventions); difference of the normalized mean to the full model.{paper ? ` The rows labelled ${REPORTED_ROW_LABEL} are the paper's Table 3 (${paper.setting}, normalized convention), for reference.` : ''}</caption>
          <thead>
            <tr>{columns.map((c) => <th scope="col" key={c.key}>{c.label}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const t = tableRows[i]!;
              return (
                <tr key={r.variant.key} data-testid={`ablation-row-${r.variant.key}`}>
                  <th scope="row">{r.variant.label}</th>
                  <td>{r.variant.off ?? '—'}</td>
                  <td className="num" data-testid="ablation-seeds-done">{String(t.seeds)}</td>
                  <td className="num" data-testid="ablation-mean">{fmtMs(r.agg.valRelL2)}</td>
                  <td className="num">{fmtMs(r.agg.valRelL2Decoded)}</td>
                  <td className="num">{t.params == null ? '—' : Number(t.params).toLocaleString('en')}</td>
                  <td className="num">{r.variant.key === 'full' ? '—' : formatPercent(t.diff as number | null)}</td>
                </tr>
              );
            })}
          </tbody>
          {paper && (
            <tbody data-testid="ablation-reported">
              <tr><th scope="rowgroup" colSpan={columns.length} className="muted">{REPORTED_ROW_LABEL}: {paper.setting}, published numbers, not measured here</th></tr>
              {reportedRows.map((r) => (
                <tr key={String(r.variant)} className="muted" data-testid="ablation-reported-row">
                  <th scope="row">{String(r.variant)}, {REPORTED_ROW_LABEL}</th>
                  <td>{String(r.off ?? '—')}</td>
                  <td className="num">—</td>
                  <td className="num">{(r.norm as number).toExponential(2)}</td>
                  <td className="num">—</td><td className="num">—</td><td className="num">—</td>
                </tr>
              ))}
            </tbody>
          )}
        </table>
      </div>
      <TableExportBar title="Ablation" columns={exportColumns} rows={exportRows} latex={{ caption, label: `tab:ablation-${ablationKey}`, bold: bestRow >= 0 ? { norm: bestRow } : undefined }} />
    </>
  );
}

/** The parameter count the engine recorded for a variant's runs (one model, so any member's). */
function recordedParams(members: RunSummary[]): number | null {
  for (const m of members) {
    const p = (m as RunSummary & { params?: number | null }).params;
    if (typeof p === 'number' && Number.isFinite(p)) return p;
  }
  return null;
}
