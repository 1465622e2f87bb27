// The model builder: the model kind (LiNO, or the FNO baseline), LiNO's block configuration and a
// diagram of the block that follows the toggles (FNO: width, modes, Fourier layers), and the
// engine's parameter count, memory and FLOPs of one training step on the
// chosen grid, with a warning before a configuration that will not fit the wasm backend.
import { useEffect, useMemo, useState } from 'react';
import { useApp } from '../store/app-store';
import {
  COMPONENT_NAMES,
  DATA_SHAPES,
  LIMITS,
  draftDataShape,
  estimateNote,
  withDataShape,
  type DataShapeKey,
  enabledComponents,
  formatBytes,
  formatCount,
  formatFlops,
  toggleComponent,
  validateDraft,
  withKind,
  MODEL_KIND_OPTIONS,
  type ModelDraft,
} from '../store/model-draft';
import type { ModelKind } from '../../../main/api/contract';
import { BlockDiagram } from '../components/block-diagram';
import { NumberField } from '../components/number-field';
import { Plot } from '../plots/plot';
import type { Trace } from '../plots/traces';
import { TableExportBar } from '../export/table-export-bar';
import type { TableColumn, TableRow } from '../export/table';

const GIB = 1024 ** 3;

/** A model-draft number (the draft's own limits, testid field-NAME). */
function DraftNumber({ label, field, draft, set, error, hint }: { label: string; field: keyof typeof LIMITS; draft: ModelDraft; set(d: ModelDraft): void; error?: string; hint?: string }) {
  const [lo, hi] = LIMITS[field];
  return <NumberField label={label} value={draft[field]} onChange={(v) => set({ ...draft, [field]: v })} min={lo} max={hi} error={error} hint={hint} testId={`field-${field}`} />;
}

export function ModelView() {
  const draft = useApp((s) => s.modelDraft);
  const setDraft = useApp((s) => s.setModelDraft);
  const estimate = useApp((s) => s.modelEstimate);
  const estimateModel = useApp((s) => s.estimateModel);
  const api = useApp((s) => s.api);
  const backend = useApp((s) => s.engine?.backend.active);
  const errors = validateDraft(draft);
  const [lastRefused, setLastRefused] = useState<string | null>(null);

  useEffect(() => {
    if (!api) return;
    const t = setTimeout(() => void estimateModel(), 150);
    return () => clearTimeout(t);
  }, [api, draft, estimateModel]);

  const result = estimate?.result ?? null;
  const on = enabledComponents(draft);
  const lino = draft.kind === 'lino';

  const sweepPlot = useMemo(() => {
    if (!result) return null;
    const xs = result.sweep.map((s) => s.side);
    const data: Trace[] = [
      { type: 'scatter', mode: 'lines+markers', name: 'Peak memory per step', x: xs, y: result.sweep.map((s) => s.peakBytes / GIB) },
      { type: 'scatter', mode: 'lines', name: 'wasm limit (4 GiB)', x: [xs[0], xs[xs.length - 1]], y: [4, 4], line: { dash: 'dash', width: 1.5 } },
      { type: 'scatter', mode: 'markers', name: 'This grid', x: [draft.gridSide], y: [result.peakBytes / GIB], marker: { size: 11, symbol: 'diamond' } },
    ];
    const layout = {
      title: `Memory of one training step (batch ${draft.batch})`,
      xaxis: { title: draft.dims === 1 ? 'Grid points' : 'Grid points per axis', type: 'log', tickvals: xs },
      yaxis: { title: 'Peak memory per training step (GiB)', type: 'log' },
      legend: { orientation: 'h', y: -0.25 },
    };
    return { data, layout };
  }, [result, draft.gridSide, draft.batch, draft.dims]);

  const summary = useMemo(() => {
    if (!result) return null;
    const grid = draft.dims === 1 ? `${draft.gridSide}` : `${draft.gridSide}x${draft.gridSide}`;
    const columns: TableColumn[] = [
      { key: 'config', label: 'Configuration' },
      { key: 'grid', label: 'Grid', align: 'r' },
      { key: 'batch', label: 'Batch', align: 'r' },
      { key: 'params', label: 'Parameters', align: 'r' },
      { key: 'memory', label: 'Peak memory / step (GiB)', align: 'r', digits: 3 },
      { key: 'flops', label: 'GFLOP / step', align: 'r', digits: 4 },
    ];
    const rows: TableRow[] = [
      {
        config: draft.kind === 'fno'
          ? `FNO width ${draft.width}, modes ${draft.modes}, ${draft.depth} Fourier layers${draft.coordinates ? ', coords' : ''}`
          : `LiNO M=${draft.width} L=${draft.depth}, ${enabledComponents(draft).join('+')}${draft.components.scattering ? ` (${draft.scattering} scattering)` : ''}${draft.coordinates ? ', coords' : ''}`,
        grid,
        batch: draft.batch,
        params: result.params,
        memory: result.peakBytes / GIB,
        flops: result.trainStepFlops / 1e9,
      },
    ];
    return { columns, rows };
  }, [result, draft]);

  return (
    <section aria-labelledby="model-title" className="model-view">
      <h1 id="model-title">Model</h1>
      <p className="muted">Build a LiNO configuration, or an FNO baseline trained on the same data, split and metric. The Training view starts runs from it.</p>
      <div className="model-grid">
        <form className="card" onSubmit={(e) => e.preventDefault()} aria-label="Model configuration">
          <fieldset>
            <legend>Architecture</legend>
            <div className="field">
              <label htmlFor="model-kind">Model</label>
              <select id="model-kind" data-testid="model-kind" value={draft.kind} onChange={(e) => setDraft(withKind(draft, e.target.value as ModelKind))}>
                {MODEL_KIND_OPTIONS.map((o) => <option key={o.kind} value={o.kind}>{o.label}</option>)}
              </select>
            </div>
            {lino ? (
              <>
                <DraftNumber label="Width M" field="width" draft={draft} set={setDraft} error={errors.width} hint="channels of the latent field" />
                <DraftNumber label="Depth L" field="depth" draft={draft} set={setDraft} error={errors.depth} hint="light-evolution blocks" />
                <div className="field" role="radiogroup" aria-label="Scattering">
                  <span className="label">Scattering</span>
                  {(['efficient', 'full'] as const).map((k) => (
                    <label key={k} className="inline">
                      <input type="radio" name="scattering" value={k} checked={draft.scattering === k} onChange={() => setDraft({ ...draft, scattering: k })} /> {k}
                    </label>
                  ))}
                </div>
                <div className="field" role="group" aria-label="Light components" aria-describedby="components-msg">
                  <span className="label">Components</span>
                  {COMPONENT_NAMES.map((c) => (
                    <label key={c} className="inline">
                      <input
                        type="checkbox"
                        checked={draft.components[c]}
                        data-testid={`toggle-${c}`}
                        onChange={() => {
                          const next = toggleComponent(draft, c);
                          setLastRefused(next === draft ? `${c} is the last component on; at least one must stay on` : null);
                          setDraft(next);
                        }}
                      />{' '}
                      {c}
                    </label>
                  ))}
                  <span id="components-msg" className={lastRefused || errors.components ? 'warn field-msg' : 'muted field-msg'} data-testid="components-msg" aria-live="polite">
                    {lastRefused ?? errors.components ?? `${on.length} of 3 on`}
                  </span>
                </div>
              </>
            ) : (
              <>
                <DraftNumber label="Width" field="width" draft={draft} set={setDraft} error={errors.width} hint="channels of the lifted field" />
                <DraftNumber label="Modes" field="modes" draft={draft} set={setDraft} error={errors.modes} hint="lowest Fourier modes kept per axis" />
                <DraftNumber label="Fourier layers" field="depth" draft={draft} set={setDraft} error={errors.depth} hint="spectral convolution + pointwise skip, GELU between" />
              </>
            )}
            <div className="field">
              <label className="inline">
                <input type="checkbox" checked={draft.coordinates} data-testid="toggle-coordinates" onChange={() => setDraft({ ...draft, coordinates: !draft.coordinates })} /> Append grid coordinates to the inputs
              </label>
            </div>
          </fieldset>
          <fieldset>
            <legend>Problem</legend>
            <div className="field">
              <label htmlFor="model-data">Data</label>
              <select id="model-data" data-testid="model-data" value={draftDataShape(draft).key} onChange={(e) => setDraft(withDataShape(draft, e.target.value as DataShapeKey))}>
                {DATA_SHAPES.map((s) => <option key={s.key} value={s.key}>{s.label}</option>)}
              </select>
            </div>
            {/* Derived, not typed: a run takes its channels from its dataset. */}
            <div className="field">
              <span className="label" id="model-channels-label">Channels (from the data)</span>
              <output aria-labelledby="model-channels-label" data-testid="model-channels">{draft.dims}D, {draft.inChannels} in → {draft.outChannels} out</output>
            </div>
            <DraftNumber label={draft.dims === 1 ? 'Grid points' : 'Grid points per axis'} field="gridSide" draft={draft} set={setDraft} error={errors.gridSide} />
            <DraftNumber label="Batch size" field="batch" draft={draft} set={setDraft} error={errors.batch} />
          </fieldset>
        </form>

        <div className="card estimate" aria-labelledby="estimate-title" role="region">
          <h2 id="estimate-title">Size and cost {estimate?.pending && <span className="muted">(updating…)</span>}</h2>
          {Object.keys(errors).length > 0 && <p className="warn">Fix the highlighted fields to see the estimate.</p>}
          {estimate?.error && <p className="error-message" data-testid="estimate-error">The engine could not estimate this configuration: {estimate.error}</p>}
          {result && Object.keys(errors).length === 0 && (
            <>
              <dl className="stats">
                <dt>Parameters</dt>
                <dd data-testid="est-params">{formatCount(result.params)}</dd>
                <dt>Input channels seen by the model</dt>
                <dd>{result.inChannels}{draft.coordinates ? ` (${draft.inChannels} data + ${draft.dims} coordinates)` : ''}</dd>
                <dt>Peak memory per training step</dt>
                <dd data-testid="est-memory">{formatBytes(result.peakBytes)}</dd>
                <dt className="sub">parameters, gradients, AdamW moments</dt>
                <dd className="sub">{formatBytes(result.paramStateBytes)}</dd>
                <dt className="sub">activations kept for backward</dt>
                <dd className="sub">{formatBytes(result.activationBytes)}</dd>
                <dt>FLOPs per training step</dt>
                <dd data-testid="est-flops">{formatFlops(result.trainStepFlops)}</dd>
                <dt className="sub">forward pass</dt>
                <dd className="sub">{formatFlops(result.forwardFlops)}</dd>
              </dl>
              {result.exceedsWasm && (
                <p className="warning" role="alert" data-testid="wasm-warning">
                  This configuration needs about {formatBytes(result.peakBytes)} per training step, more than the {formatBytes(result.wasmLimitBytes)} the wasm
                  backend can address{backend === 'wasm' ? ' (the backend this engine runs)' : ''}: it will not fit there. Lower the batch, grid, width or depth
                  {lino && draft.scattering === 'full' && draft.components.scattering ? ', switch to efficient scattering (full scattering grows as N²)' : ''}, or train on the GPU backend.
                </p>
              )}
              <p className="muted small" data-testid="estimate-note">{estimateNote(result.source)}.</p>
              {summary && <TableExportBar title={lino ? 'LiNO model size and cost' : 'FNO model size and cost'} columns={summary.columns} rows={summary.rows} latex={{ label: lino ? 'tab:lino-size' : 'tab:fno-size' }} />}
            </>
          )}
        </div>
      </div>

      {lino && (
        <div className="card">
          <h2>Light-evolution block</h2>
          <BlockDiagram components={draft.components} scattering={draft.scattering} depth={draft.depth} width={draft.width} />
        </div>
      )}

      {sweepPlot && Object.keys(errors).length === 0 && (
        <div className="card">
          <Plot data={sweepPlot.data} layout={sweepPlot.layout} title="Memory per training step vs grid size" height={300} testId="memory-plot" />
        </div>
      )}
    </section>
  );
}
