// The ablation's results table (the paper's Table 3): per variant, finished seeds, best validation
// relL2 (mean ± std over seeds, both conventions), parameters and the difference to the full model;
// exported to LaTeX / CSV.
import { TableExportBar } from '../../export/table-export-bar';
import { formatMeanStd, formatPercent } from '../../logic/ablation-results';
import type { VariantKey } from '../../logic/ablation-plan';
import { REPORTED_ROW_LABEL } from '../../../../main/api/reproduce';
import { ablationTable, type AblationRow, type PaperReference } from '../../logic/ablation-view-data';

export type { PaperReference };

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
  const { columns, tableRows, reportedRows, exportColumns, exportRows, bestRow } = ablationTable({ rows, seeds, paper, params });
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
