// Compare mode's diagnostics: the compared runs' error spectra on one axis, for the shown sample and for
// the validation split's mean (the truth's spectrum once), their fRMSE and relative bands, and each
// run's physics check beside the truth's, as exportable figures and tables.
import type { EvaluationResult } from '../../../../main/api/contract';
import { SpectrumBands, fmtDiag, type SpectrumEntry } from '../../components/error-diagnostics';
import { TableExportBar } from '../../export/table-export-bar';

type Resolution = EvaluationResult['resolutions'][number];
type Sample = NonNullable<Resolution['fields']>[number];
export interface CompareDiagnosticsRow { name: string; sample: Sample; res: Resolution }

const PHYSICS_COLUMNS = [
  { key: 'run', label: 'run' },
  { key: 'sample', label: 'sample: prediction', align: 'r' as const }, { key: 'sampleTruth', label: 'sample: truth', align: 'r' as const },
  { key: 'split', label: 'validation mean: prediction', align: 'r' as const }, { key: 'splitTruth', label: 'validation mean: truth', align: 'r' as const },
];

export function CompareDiagnostics({ rows, index }: { rows: CompareDiagnosticsRow[]; index: number }) {
  const withSpectrum = rows.filter((r) => r.sample.diagnostics?.spectrum);
  const bands = withSpectrum[0]?.sample.diagnostics!.spectrum!.bands;
  const sampleEntries: SpectrumEntry[] = withSpectrum.map((r, i) => ({ name: r.name, summary: r.sample.diagnostics!.spectrum!.mean, truth: i === 0 }));
  const splitEntries: SpectrumEntry[] = rows.filter((r) => r.res.diagnostics?.spectrum).map((r, i) => ({ name: r.name, summary: r.res.diagnostics!.spectrum!.mean, truth: i === 0, dash: 'dash' }));
  const physics = rows.map((r) => ({ r, p: r.sample.diagnostics?.physics, s: r.res.diagnostics?.physics })).filter((x) => x.p || x.s);
  if (rows.every((r) => !r.sample.diagnostics)) return <p className="muted small">These evaluations were made without diagnostics: compare again to see the error spectra.</p>;
  const quantity = physics[0]?.p?.quantity ?? physics[0]?.s?.quantity;
  return (
    <div data-testid="compare-diagnostics">
      <h2>Where each run's error lives</h2>
      {bands && <SpectrumBands entries={sampleEntries} bands={bands} title={`Error spectra of runs, sample ${index}`} testId="compare-spectrum" />}
      {bands && splitEntries.length > 0 && <SpectrumBands entries={splitEntries} bands={bands} title="Error spectra of runs, validation mean" testId="compare-spectrum-split" />}
      {physics.length > 0 && (
        <>
          <h3>Physics ({quantity})</h3>
          <table className="table" aria-label="Physics check of each run">
            <thead><tr>{PHYSICS_COLUMNS.map((c) => <th key={c.key}>{c.label}</th>)}</tr></thead>
            <tbody data-testid="compare-physics">
              {physics.map(({ r, p, s }) => (
                <tr key={r.name}><td>{r.name}</td><td>{fmtDiag(p?.mean.prediction)}</td><td>{fmtDiag(p?.mean.truth)}</td><td>{fmtDiag(s?.mean.prediction)}</td><td>{fmtDiag(s?.mean.truth)}</td></tr>
              ))}
            </tbody>
          </table>
          <TableExportBar title={`Physics of runs, sample ${index}`} columns={PHYSICS_COLUMNS}
            rows={physics.map(({ r, p, s }) => ({ run: r.name, sample: p?.mean.prediction ?? null, sampleTruth: p?.mean.truth ?? null, split: s?.mean.prediction ?? null, splitTruth: s?.mean.truth ?? null }))} latex={{ label: 'tab:compare-physics' }} />
        </>
      )}
    </div>
  );
}
