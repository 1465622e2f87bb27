// How far to trust one prediction (a Fields sample, a Playground input), in plain words with the
// numbers behind them (docs/diagnostics.md): how much the run's seed group disagrees on it (each seed's
// model predicts: a std map and ||std|| / ||mean||), how far the input lies from the training inputs,
// and whether the prediction obeys the PDE (its residual beside the truth's). A run trained alone has
// no spread: the panel says so and offers to train its configuration with more seeds.
import { useState } from 'react';
import type { PlaygroundFields, PlaygroundTrust } from '../../../main/api/contract';
import { useTrust, trainSeedGroup, GROUP_SEEDS } from '../queries/trust';
import { useRunDetail } from '../stores/runs-cache';
import { useApp } from '../stores/app-store';
import { errorText } from '../api/error-text';
import { Plot } from '../plots/plot';
import { heatmapTrace, lineTrace } from '../plots/traces';
import { TableExportBar } from '../export/table-export-bar';
import { fmtDiag, type Physics } from './error-diagnostics';

const pct = (v: number) => `${(100 * v).toPrecision(3)} %`;

function SpreadMap({ spread }: { spread: NonNullable<PlaygroundTrust['spread']> }) {
  // the last channel: a rollout's last step, where the seeds part most
  const c = spread.std.length - 1;
  const values = spread.std[c]!;
  const title = `Std of the prediction over the seeds${spread.std.length > 1 ? `, channel ${c + 1}` : ''}`;
  if (spread.grid.length === 1) return <Plot title={title} testId="trust-spread-map" data={[lineTrace({ y: values, name: 'std' })]} layout={{ xaxis: { title: 'x index' }, yaxis: { title: 'std' } }} height={260} />;
  const [nx, ny] = spread.grid as [number, number];
  return <Plot title={title} testId="trust-spread-map" data={[heatmapTrace({ values, nx, ny, scale: 'viridis', colorbarTitle: 'std' })]} height={300} aspect={nx / ny} />;
}

const MEMBER_COLUMNS = [
  { key: 'id', label: 'run' }, { key: 'name', label: 'name' }, { key: 'seed', label: 'seed', align: 'r' as const },
  { key: 'fromMean', label: '||pred - mean|| / ||mean||', align: 'r' as const },
];

function Spread({ t, relL2 }: { t: PlaygroundTrust; relL2: number | null }) {
  if (!t.spread) return null;
  const ratio = relL2 !== null && relL2 > 0 ? t.spread.relative / relL2 : null;
  return (
    <>
      <p data-testid="trust-spread">
        The {t.members.length} seeds of group “{t.group}” differ on this prediction by <strong>{pct(t.spread.relative)}</strong> of its size (‖std‖ / ‖mean‖).{' '}
        {ratio === null ? '' : ratio < 0.3
          ? `Its error (relL2 ${relL2!.toPrecision(3)}, decoded) is much larger: the seeds make the same mistake, so agreement here is no sign of accuracy.`
          : `That is ${ratio.toPrecision(2)}× its error (relL2 ${relL2!.toPrecision(3)}, decoded): the seeds disagree about as much as the prediction is wrong.`}
      </p>
      <SpreadMap spread={t.spread} />
      <TableExportBar title="Seed spread of one prediction" columns={MEMBER_COLUMNS} rows={t.members.map((m) => ({ id: m.id, name: m.name, seed: m.seed, fromMean: m.fromMean }))} latex={{ label: 'tab:seed-spread' }} />
    </>
  );
}

function NoGroup({ runId, t }: { runId: string; t: PlaygroundTrust }) {
  const config = useRunDetail(runId)?.value?.config;
  const setView = useApp((s) => s.setView);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const train = async () => {
    if (!config) return;
    setBusy(true);
    try {
      await trainSeedGroup(config, String(config.name ?? runId));
      setView('training');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <p data-testid="trust-no-group">
      {t.group === null
        ? 'This run was trained alone (no seed group), so there is no spread over seeds to show.'
        : `Only this run of group “${t.group}” could predict (${t.skipped.map((s) => `${s.id}: ${s.reason}`).join('; ') || 'no other member'}).`}{' '}
      <button type="button" data-testid="trust-train-group" disabled={!config || busy} onClick={() => void train()}>
        Train this configuration with {GROUP_SEEDS} seeds
      </button>
      {' '}(a new seed group; its runs then show their spread here).
      {error && <span className="error-message" role="alert"> Could not start: {error}</span>}
    </p>
  );
}

/** The trust panel of `runId`'s prediction of `input`; `relL2`: that prediction's error (decoded) where a truth is known. */
export function TrustPanel({ runId, input, physics, what, relL2 = null }: { runId: string; input: PlaygroundFields; physics: Physics | null; what: string; relL2?: number | null }) {
  const [asked, setAsked] = useState<string | null>(null);
  const q = useTrust(runId, input, asked);
  const t = q.value && asked ? q.value : null;
  return (
    <div className="card" data-testid="trust-panel">
      <h2>How far to trust this prediction</h2>
      <div className="row wrap">
        <button type="button" data-testid="trust-ask" disabled={q.busy} onClick={() => setAsked(`${what}|${Date.now()}`)}>
          Ask the seed group about {what}
        </button>
        {q.busy && <span className="muted">each seed's model is predicting…</span>}
        {q.error && <span className="error-message" role="alert">Could not judge it: {q.error}</span>}
      </div>
      {t && (t.spread ? <Spread t={t} relL2={relL2} /> : <NoGroup runId={runId} t={t} />)}
      {t && (
        <p data-testid="trust-distance" data-level={t.distance.level}>
          Distance to the training inputs: {t.distance.label} (mean {t.distance.zMean.toFixed(2)} sd, spread {t.distance.zStd.toFixed(2)} sd from the training samples'; {pct(t.distance.outside)} of the points off the training values).
        </p>
      )}
      <p data-testid="trust-physics">
        {physics
          ? <>Physics: the prediction's {physics.benchmark === 'darcy' ? 'PDE residual' : 'conservation drift'} is <strong>{fmtDiag(physics.mean.prediction)}</strong>; {physics.mean.truth === null ? 'the truth\'s is shown once it is solved' : <>the truth's own is {fmtDiag(physics.mean.truth)} (what “consistent” looks like on these data)</>}.</>
          : 'Physics: no check for this benchmark (Darcy, Burgers and Navier–Stokes have one).'}
      </p>
    </div>
  );
}
