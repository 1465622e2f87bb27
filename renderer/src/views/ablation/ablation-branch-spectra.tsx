// Which LiNO branch carries which frequencies, across the ablation's variants: each variant's first
// finished seed evaluated with diagnostics (runs.evaluate, the same forward pass as the light maps
// gives the branch spectra), then per block the share of each band's branch energy (stacked bars),
// the branch spectra overlaid, and the table with both relL2 conventions and the energy convention
// named (CSV/LaTeX). Kept evaluations are recalled, so a reload shows them without evaluating again.
import { useEffect, useMemo, useState } from 'react';
import { useEvaluation } from '../../stores/evaluations';
import { Plot } from '../../plots/plot';
import { branchOverlayTraces, branchShareFigure } from '../../plots/branch-comparison';
import { TableExportBar } from '../../export/table-export-bar';
import { BRANCH_COMPARISON_CONVENTIONS, branchComparisonTable, type BranchVariant } from '../../../../main/api/diagnostics-tables';
import { branchVariant, firstDone, type AblationRow } from '../../logic/ablation-view-data';

const keyOf = (runId: string) => `ablation-branches|${runId}|val`;
const paramsOf = (id: string) => ({ id, checkpoint: 'best' as const, split: 'val' as const, diagnostics: true });

export function AblationBranchSpectra({ ablationKey, rows }: { ablationKey: string; rows: AblationRow[] }) {
  const evals = useEvaluation();
  const targets = rows.filter((r) => r.config).map((r) => ({ label: r.variant.label, run: firstDone(r) }));
  const ready = targets.length > 0 && targets.every((t) => t.run);
  const ids = targets.map((t) => t.run?.id ?? '').join();
  useEffect(() => {
    for (const t of targets) if (t.run && !evals.asked(keyOf(t.run.id))) void evals.recall(keyOf(t.run.id), paramsOf(t.run.id));
  }, [ids]); // the targets follow the variants' first finished runs: recalled once per run
  const states = targets.map((t) => ({ ...t, st: evals.state(t.run ? keyOf(t.run.id) : null) }));
  const busy = states.some((s) => s.st.busy);
  const failed = states.find((s) => s.st.error);
  const variants: BranchVariant[] = useMemo(() => states.flatMap((s) => {
    const v = s.run ? branchVariant(s.label, s.run.id, s.st.result) : null;
    return v ? [v] : [];
  }), [states.map((s) => `${s.run?.id}:${s.st.job?.id ?? 'kept'}:${s.st.result ? 'r' : '-'}`).join()]); // a new result comes with a new job (or a recalled one): the figures redraw only then
  const blocks = variants[0]?.branches.blocks.length ?? 0;
  const [block, setBlock] = useState(0);
  const b = Math.min(block, Math.max(0, blocks - 1));
  const shares = useMemo(() => branchShareFigure(variants, b), [variants, b]);
  const table = useMemo(() => branchComparisonTable(variants), [variants]);
  const evaluate = () => {
    for (const s of states) if (s.run && !s.st.result && !s.st.busy) void evals.start(keyOf(s.run.id), paramsOf(s.run.id));
  };
  const missing = states.filter((s) => !s.st.result).length;
  return (
    <>
      <h2>Branch spectra across the variants</h2>
      <p className="muted small">Per block, the spectrum of each branch's contribution to the residual stream (reflection, refraction, scattering) on the validation split, for each variant's first finished seed: which branch carries which frequencies, and how that moves when one is switched off.</p>
      <div className="row wrap">
        <button onClick={evaluate} disabled={!ready || busy || missing === 0} data-testid="ablation-branches-evaluate">
          {missing === 0 && targets.length > 0 ? 'Branch spectra evaluated' : `Evaluate branch spectra (${missing} variant${missing === 1 ? '' : 's'})`}
        </button>
        {!ready && <span className="muted">Every variant needs a finished run first.</span>}
        {busy && <span role="status" data-testid="ablation-branches-pending">evaluating…</span>}
        {failed && <span className="error-message" role="alert">Evaluation failed: {failed.st.error}</span>}
        {blocks > 1 && (
          <>
            <label htmlFor="ablation-branches-block">Block</label>
            <select id="ablation-branches-block" data-testid="ablation-branches-block" value={b} onChange={(e) => setBlock(Number(e.target.value))}>
              {Array.from({ length: blocks }, (_, i) => <option key={i} value={i}>{i + 1}</option>)}
            </select>
          </>
        )}
      </div>
      {variants.length > 0 && (
        <>
          <Plot title={`Ablation branch energy shares per band, block ${b + 1}`} testId="ablation-branch-shares" data={shares.data} layout={shares.layout} height={360} />
          <Plot title={`Ablation branch spectra, block ${b + 1}`} testId="ablation-branch-spectra" data={branchOverlayTraces(variants, b)}
            layout={{ xaxis: { title: { text: 'wavenumber shell k = floor(|κ|)' } }, yaxis: { title: { text: 'E(k), summed over latent channels' }, type: 'log' } }} height={340} />
          <p className="muted small">{BRANCH_COMPARISON_CONVENTIONS}.</p>
          <TableExportBar title="Ablation branch spectra" columns={table.columns} rows={table.rows}
            latex={{ label: `tab:ablation-branches-${ablationKey}`, caption: `Branch energy per PDEBench band across the ablation's variants. ${BRANCH_COMPARISON_CONVENTIONS}.` }} />
        </>
      )}
    </>
  );
}
