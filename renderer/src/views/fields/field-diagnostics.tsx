// Under the Fields view's panels: where the shown sample's error lives (its error spectrum beside the
// validation split's mean, the bands as a table) and whether it obeys the PDE (its residual beside the
// truth's, maps included); the numbers come with the evaluation (runs.evaluate with diagnostics).
import type { EvaluationResult } from '../../../../main/api/contract';
import { PhysicsCheck, SpectrumBands, type SpectrumEntry } from '../../components/error-diagnostics';

type Resolution = EvaluationResult['resolutions'][number];
type Sample = NonNullable<Resolution['fields']>[number];

export function FieldDiagnostics({ sample, res }: { sample: Sample; res: Resolution }) {
  const own = sample.diagnostics, split = res.diagnostics;
  if (!own && !split) return <p className="muted small">This evaluation was made without diagnostics: evaluate again to see the error spectrum and the physics check.</p>;
  const spectrum = own?.spectrum ?? split?.spectrum;
  const entries: SpectrumEntry[] = [
    ...(own?.spectrum ? [{ name: `sample ${sample.index}`, summary: own.spectrum.mean }] : []),
    ...(split?.spectrum ? [{ name: `validation mean (${res.n} samples)`, summary: split.spectrum.mean, dash: 'dash' }] : []),
  ];
  return (
    <div data-testid="fields-diagnostics">
      <h2>Where the error lives ({res.grid.join('×')})</h2>
      {spectrum ? <SpectrumBands entries={entries} bands={spectrum.bands} title={`Error spectrum, sample ${sample.index}`} testId="fields-spectrum" />
        : <p className="muted small">No error spectrum: the data are not on a 1-D or 2-D grid.</p>}
      <h3>Physics of sample {sample.index}</h3>
      <PhysicsCheck physics={own?.physics ?? null} testId="fields-physics" />
      {split?.physics && <p className="muted small" data-testid="fields-physics-split">Validation mean: prediction {split.physics.mean.prediction.toExponential(3)}, truth {split.physics.mean.truth?.toExponential(3) ?? 'n/a'}.</p>}
    </div>
  );
}
