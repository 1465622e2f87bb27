// Where a prediction's error lives, drawn beside the fields of the Fields, Playground and Rollout views
// (docs/diagnostics.md): the error spectrum against the truth's with PDEBench's band edges, the fRMSE
// and the relative error per band (a table, CSV/LaTeX), and the physics check with the truth's own value
// beside the prediction's, residual maps included. The numbers are the engine's (main/train/diagnostics/,
// one implementation); these components only draw them, so every view shows them alike.
import type { EvaluationResult } from '../../../main/api/contract';
import { Plot } from '../plots/plot';
import { heatmapTrace } from '../plots/traces';
import { bandEdgeShapes, summaryTraces } from '../plots/spectrum-traces';
import { TableExportBar } from '../export/table-export-bar';

export type Diagnostics = NonNullable<EvaluationResult['resolutions'][number]['diagnostics']>;
type Spectrum = NonNullable<Diagnostics['spectrum']>;
export type SpectrumSummary = Spectrum['mean'];
export type Physics = NonNullable<Diagnostics['physics']>;
type Value = Physics['mean'];

export const fmtDiag = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : v.toExponential(3));

const BAND_COLUMNS = [
  { key: 'what', label: 'what' },
  ...(['low', 'mid', 'high'] as const).map((b) => ({ key: `f_${b}`, label: `fRMSE ${b}`, align: 'r' as const })),
  ...(['low', 'mid', 'high'] as const).map((b) => ({ key: `r_${b}`, label: `relative ${b}`, align: 'r' as const })),
];

/** `truth: false`: leave this entry's truth spectrum out (runs overlaid on one sample share one truth). */
export interface SpectrumEntry { name: string; summary: SpectrumSummary; dash?: string; truth?: boolean }

/** The error spectra of the entries (a sample, its split's mean, runs overlaid) with their truths', and their bands as a table. */
export function SpectrumBands({ entries, bands, title, testId }: { entries: SpectrumEntry[]; bands: Spectrum['bands']; title: string; testId: string }) {
  if (entries.length === 0) return null;
  const shells = Math.max(...entries.map((e) => e.summary.error.length));
  const rows = entries.map((e) => ({
    what: e.name,
    f_low: e.summary.fRmse.low, f_mid: e.summary.fRmse.mid, f_high: e.summary.fRmse.high,
    r_low: e.summary.bandRelative.low, r_mid: e.summary.bandRelative.mid, r_high: e.summary.bandRelative.high,
  }));
  return (
    <div data-testid={testId}>
      <Plot title={title} testId={`${testId}-plot`} data={summaryTraces(entries)}
        layout={{ xaxis: { title: 'wavenumber shell k = floor(|κ|)' }, yaxis: { title: 'E(k)', type: 'log' }, shapes: bandEdgeShapes(bands, shells) }} height={300} />
      <table className="table" aria-label={`${title}: fRMSE and relative error per band`}>
        <thead>
          <tr><th>what</th><th>fRMSE low (k &lt; {bands.iLow})</th><th>mid</th><th>high (k ≥ {bands.iHigh})</th><th>relative low</th><th>mid</th><th>high</th></tr>
        </thead>
        <tbody data-testid={`${testId}-bands`}>
          {entries.map((e) => (
            <tr key={e.name}>
              <td>{e.name}</td>
              {(['low', 'mid', 'high'] as const).map((b) => <td key={`f${b}`}>{fmtDiag(e.summary.fRmse[b])}</td>)}
              {(['low', 'mid', 'high'] as const).map((b) => <td key={`r${b}`}>{fmtDiag(e.summary.bandRelative[b])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      <TableExportBar title={`${title} bands`} columns={BAND_COLUMNS} rows={rows} latex={{ label: `tab:${testId}` }} />
    </div>
  );
}

/** "quantity: prediction X, truth Y" (the truth's value, or why there is none). */
export function PhysicsLine({ quantity, value, testId }: { quantity: string; value: Value; testId: string }) {
  return (
    <p data-testid={testId}>
      {quantity}: prediction <strong>{fmtDiag(value.prediction)}</strong>, truth {value.truth === null ? '— (no truth yet: it is shown once the solver has answered)' : fmtDiag(value.truth)}
    </p>
  );
}

type Maps = NonNullable<Physics['map']>;

/**
 * A residual map of the prediction beside the truth's (each exportable), each on its own symmetric
 * colour range: the truth's is often orders of magnitude smaller (solver tolerance, float32), and on
 * the prediction's range it would show as blank; the numbers above compare their sizes.
 */
export function ResidualMaps({ maps, what, testId }: { maps: Maps; what: string; testId: string }) {
  const [nx, ny] = maps.grid as [number, number];
  return (
    <div className="row wrap" data-testid={testId}>
      <Plot title={`${what}, prediction`} testId={`${testId}-prediction`} data={[heatmapTrace({ values: maps.prediction, nx, ny, scale: 'RdBu' })]} height={280} aspect={nx / ny} />
      {maps.truth && <Plot title={`${what}, truth`} testId={`${testId}-truth`} data={[heatmapTrace({ values: maps.truth, nx, ny, scale: 'RdBu' })]} height={280} aspect={nx / ny} />}
    </div>
  );
}

/** The physics check of one prediction (a sample, a Playground input): its numbers beside the truth's, and its residual maps. */
export function PhysicsCheck({ physics, testId }: { physics: Physics | null; testId: string }) {
  if (!physics) return <p className="muted small">No physics check for this benchmark (Darcy, Burgers and Navier–Stokes have one).</p>;
  return (
    <div data-testid={testId}>
      <PhysicsLine quantity={physics.quantity} value={physics.mean} testId={`${testId}-value`} />
      {physics.equation && <PhysicsLine quantity={physics.equation.quantity} value={physics.equation.mean} testId={`${testId}-equation`} />}
      {physics.map && <ResidualMaps maps={physics.map} what="Darcy residual f + ∇·(a∇u)" testId={`${testId}-map`} />}
      {physics.equation && <ResidualMaps maps={physics.equation.map} what="Vorticity-equation residual, step 1" testId={`${testId}-equation-map`} />}
    </div>
  );
}
