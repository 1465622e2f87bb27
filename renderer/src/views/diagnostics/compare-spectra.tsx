// Error spectra of several runs overlaid (e.g. LiNO, FNO and DeepONet on the same data): each
// checked run is evaluated with diagnostics on the same split, its error spectrum drawn beside the
// others' with the first one's truth spectrum, and their fRMSE bands in one table (CSV/LaTeX).
import { useState } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { useEvaluation } from '../../stores/evaluations';
import { Plot } from '../../plots/plot';
import { overlayTraces } from '../../plots/spectrum-traces';
import { TableExportBar } from '../../export/table-export-bar';

const COLUMNS = [
  { key: 'run', label: 'run' },
  ...(['low', 'mid', 'high'] as const).map((b) => ({ key: `f_${b}`, label: `fRMSE ${b}`, align: 'r' as const })),
  ...(['low', 'mid', 'high'] as const).map((b) => ({ key: `r_${b}`, label: `relative ${b}`, align: 'r' as const })),
  { key: 'physics', label: 'physics (prediction)', align: 'r' as const },
  { key: 'physicsTruth', label: 'physics (truth)', align: 'r' as const },
];

export function CompareSpectra({ runs, split, keyOf }: { runs: RunSummary[]; split: 'val' | 'test'; keyOf: (id: string, split: 'val' | 'test') => string }) {
  const evals = useEvaluation();
  const [checked, setChecked] = useState<string[]>([]);
  const candidates = runs.filter((r) => r.bestEpoch != null);
  const shown = checked.map((id) => ({ run: runs.find((r) => r.id === id), st: evals.state(keyOf(id, split)) }))
    .filter((x) => x.run && x.st.result?.resolutions[0]?.diagnostics?.spectrum);
  const data = shown.map((x) => ({ name: `${x.run!.name} (${x.run!.id})`, spectrum: x.st.result!.resolutions[0]!.diagnostics!.spectrum!, physics: x.st.result!.resolutions[0]!.diagnostics!.physics }));
  const rows = data.map((d) => ({
    run: d.name,
    f_low: d.spectrum.mean.fRmse.low, f_mid: d.spectrum.mean.fRmse.mid, f_high: d.spectrum.mean.fRmse.high,
    r_low: d.spectrum.mean.bandRelative.low, r_mid: d.spectrum.mean.bandRelative.mid, r_high: d.spectrum.mean.bandRelative.high,
    physics: d.physics?.mean.prediction ?? null, physicsTruth: d.physics?.mean.truth ?? null,
  }));
  const busy = checked.some((id) => evals.state(keyOf(id, split)).busy);
  const evaluate = () => {
    for (const id of checked) if (!evals.state(keyOf(id, split)).result) void evals.start(keyOf(id, split), { id, checkpoint: 'best', split, diagnostics: true });
  };
  if (candidates.length < 2) return null;
  return (
    <>
      <h2>Compare runs</h2>
      <fieldset className="row wrap" data-testid="diagnostics-compare-runs">
        <legend>Runs to overlay (same data)</legend>
        {candidates.map((r) => (
          <label key={r.id}>
            <input type="checkbox" checked={checked.includes(r.id)} onChange={(e) => setChecked((c) => (e.target.checked ? [...c, r.id] : c.filter((x) => x !== r.id)))} />
            {r.name}
          </label>
        ))}
      </fieldset>
      <button data-testid="diagnostics-compare" disabled={checked.length === 0 || busy} onClick={evaluate}>Evaluate the checked runs with diagnostics</button>
      {data.length > 0 && (
        <>
          <Plot title="Error spectra of runs" testId="diagnostics-compare-plot" data={overlayTraces(data)}
            layout={{ xaxis: { title: 'wavenumber shell k' }, yaxis: { title: 'E(k)', type: 'log' } }} height={320} />
          <TableExportBar title="Error spectrum bands of runs" columns={COLUMNS} rows={rows} latex={{ label: 'tab:spectrum-runs' }} />
        </>
      )}
    </>
  );
}
