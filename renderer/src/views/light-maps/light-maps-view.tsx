import { useEffect, useId, useState } from 'react';
import { useTraining } from '../../stores/training-store';
import { RunPicker } from '../../components/run-picker';
import { MAP_KINDS, type MapKind } from '../../plots/light-map-traces';
import { useLightMaps } from '../../queries/light-maps';
import { NumberField } from '../../components/number-field';
import { MapPanels } from './map-panels';
import { QueryInput } from './query-input';
import { CorrelationSection } from './correlation-section';
import { hasLightMechanisms, noMechanismsText } from '../../logic/model-kind';

/** Where each LiNO block reflects, refracts and scatters, point by point, for one validation sample. */
export function LightMapsView() {
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [checkpoint, setCheckpoint] = useState<'best' | 'last'>('best');
  const [sample, setSample] = useState(0);
  const [block, setBlock] = useState<number | 'all'>(0);
  const [kind, setKind] = useState<MapKind>('reflectionActivity');
  const [query, setQuery] = useState<number[] | null>(null);
  const [overlay, setOverlay] = useState(false);
  const ids = { ck: useId(), block: useId(), kind: useId() };
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);
  useEffect(() => setQuery(null), [run?.id, sample]);
  // Only LiNO runs have light maps: other kinds are told so here instead of asking the engine.
  const lino = !!run && hasLightMechanisms(run);
  const ready = run && lino && run.epochsDone > 0;
  const { result, error, busy } = useLightMaps(ready ? { runId: run.id, checkpoint, sample, query } : null);
  const depth = result?.blocks.length ?? 0;

  return (
    <section aria-labelledby="lightmaps-title">
      <h1 id="lightmaps-title">Light maps</h1>
      <p className="muted">
        Per block and point, how much the operator reflects, refracts and scatters one validation sample: a branch's activity is the share of the state its mirror acts on, its contribution the gated change it makes. Click a point (or the input) to see its scattering kernel.
      </p>
      <RunPicker />
      {run && !lino && <p className="card" role="status" data-testid="lightmaps-not-lino">{noMechanismsText(run, 'light maps')}</p>}
      {run && lino && !ready && <p className="muted" data-testid="lightmaps-waiting">This run has no checkpoint yet.</p>}
      {ready && (
        <div className="row">
          <label htmlFor={ids.ck}>Checkpoint</label>
          <select id={ids.ck} value={checkpoint} onChange={(e) => setCheckpoint(e.target.value as 'best' | 'last')}>
            <option value="best">best</option>
            <option value="last">last</option>
          </select>
          <NumberField label="Validation sample" inline value={sample} onChange={(v) => setSample(Math.max(0, Math.floor(v) || 0))} min={0} max={result ? result.samples - 1 : undefined} testId="lightmaps-sample" />
          <label htmlFor={ids.block}>Block</label>
          <select id={ids.block} data-testid="lightmaps-block" value={String(block)} onChange={(e) => setBlock(e.target.value === 'all' ? 'all' : Number(e.target.value))}>
            {Array.from({ length: Math.max(depth, 1) }, (_, b) => <option key={b} value={b}>block {b + 1}</option>)}
            <option value="all">all blocks (depth strip)</option>
          </select>
          <label htmlFor={ids.kind}>Map</label>
          <select id={ids.kind} data-testid="lightmaps-kind" value={kind} onChange={(e) => setKind(e.target.value as MapKind)}>
            {MAP_KINDS.map((m) => <option key={m.key} value={m.key}>{m.label}</option>)}
          </select>
          <label title="one block's map drawn over the input (the depth strip stays side by side)">
            <input type="checkbox" data-testid="lightmaps-overlay" checked={overlay} onChange={(e) => setOverlay(e.target.checked)} /> Overlay on the input
          </label>
          {busy && <span className="muted" data-testid="lightmaps-busy">computing…</span>}
        </div>
      )}
      {ready && <QueryInput query={query} onPick={setQuery} />}
      {error && <p role="alert" className="error" data-testid="lightmaps-error">{error}</p>}
      {result && ready && result.runId === run.id && (
        <>
          {result.query && <p className="muted" data-testid="lightmaps-query">Query point [{result.query.join(', ')}]{block === 'all' ? ' (kernel of block 1)' : ''}.</p>}
          <MapPanels result={result} block={block === 'all' || block < depth ? block : 0} kind={kind} overlay={overlay} onPick={setQuery} />
        </>
      )}
      {ready && <CorrelationSection runId={run.id} checkpoint={checkpoint} />}
    </section>
  );
}
