// The engine's numbers for the draft: parameters, memory and FLOPs of one training step, the wasm
// warning, where the numbers come from, and the size table for export (one row, the kind's summary).
import { useMemo } from 'react';
import { describeDraft, estimateNote, formatBytes, formatCount, formatFlops, type DraftErrors, type ModelDraft } from '../../logic/model-draft';
import { modelKindDeclaration, type ModelEstimate } from '../../../../main/api/contract';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';

const GIB = 1024 ** 3;

const COLUMNS: TableColumn[] = [
  { key: 'config', label: 'Configuration' },
  { key: 'grid', label: 'Grid', align: 'r' },
  { key: 'batch', label: 'Batch', align: 'r' },
  { key: 'params', label: 'Parameters', align: 'r' },
  { key: 'memory', label: 'Peak memory / step (GiB)', align: 'r', digits: 3 },
  { key: 'flops', label: 'GFLOP / step', align: 'r', digits: 4 },
];

interface Props {
  draft: ModelDraft;
  errors: DraftErrors;
  estimate: { result: ModelEstimate | null; error: string | null; pending: boolean } | null;
  backend?: string;
}

export function EstimateCard({ draft, errors, estimate, backend }: Props) {
  const result = estimate?.result ?? null;
  const valid = Object.keys(errors).length === 0;
  const name = modelKindDeclaration(draft.kind).name;
  const rows = useMemo((): TableRow[] | null => {
    if (!result) return null;
    const grid = draft.dims === 1 ? `${draft.gridSide}` : `${draft.gridSide}x${draft.gridSide}`;
    const config = `${describeDraft(draft, 'summary')}${draft.coordinates ? ', coords' : ''}`;
    return [{ config, grid, batch: draft.batch, params: result.params, memory: result.peakBytes / GIB, flops: result.trainStepFlops / 1e9 }];
  }, [result, draft]);
  const fullScattering = draft.kind === 'lino' && draft.scattering === 'full' && draft.components.scattering;

  return (
    <div className="card estimate" aria-labelledby="estimate-title" role="region">
      <h2 id="estimate-title">Size and cost {estimate?.pending && <span className="muted">(updating…)</span>}</h2>
      {!valid && <p className="warn">Fix the highlighted fields to see the estimate.</p>}
      {estimate?.error && <p className="error-message" data-testid="estimate-error">The engine could not estimate this configuration: {estimate.error}</p>}
      {result && valid && (
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
              {fullScattering ? ', switch to efficient scattering (full scattering grows as N²)' : ''}, or train on the GPU backend.
            </p>
          )}
          <p className="muted small" data-testid="estimate-note">{estimateNote(result.source)}.</p>
          {rows && <TableExportBar title={`${name} model size and cost`} columns={COLUMNS} rows={rows} latex={{ label: `tab:${draft.kind}-size` }} />}
        </>
      )}
    </div>
  );
}
