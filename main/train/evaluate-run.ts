// Evaluation of a stored run: rebuild its model from config.json, load a checkpoint's weights,
// prepare its data (at the training resolution and at any others: solved there by the generator or
// resampled, ./data-at-grid.ts), evaluate a split. Data at another resolution are re-encoded with the
// checkpoint's (training) normalizer, and show the training grid's best/median/worst samples.
import { join, resolve } from 'node:path';
import type { EvaluationResult } from './evaluation-result';
import type { RunHandle } from '../runs/run-store';
import { loadCheckpoint, type CheckpointName } from '../runs/checkpoint';
import { loadStateDict } from '../runs/state-dict';
import { exportPredictions, type PredictionsFormat } from './export-predictions';
import { parseRunConfig } from './runner';
import { modelFor } from './trainer';
import { loadTrainData } from './data-source';
import { autoregressiveSpec, type TrainData, type TrainSplit } from './data';
import { evaluateSplit } from './evaluate';
import { gridOrigin, gridSide } from '../data/resize-prepared';
import type { PreparedDataset } from '../data/dataset';
import type { TransferSource } from '../data/transfer-source';
import { dataAtGrid } from './data-at-grid';
import { sampleDiagnostics, splitDiagnostics, type SplitDiagnosticsInput } from './diagnostics/split-diagnostics';
import { branchSpectra } from './diagnostics/branch-spectra';
import type { BranchSpectraReport } from './diagnostics/schema';
import { LinoOperator } from '../model/lino/operator';

export interface EvaluateRunOptions {
  /** Evaluate on other data than the run's own (same channels); normalized with the run's training statistics. */
  data?: import('../data/data-spec').DataSpec;
  checkpoint?: CheckpointName;
  split?: 'train' | 'val' | 'test';
  resolutions?: number[];
  /**
   * Data at the other resolutions: 'solved' at each by the generator (refused, with the reason, for
   * data the generator did not make), 'resampled' from the native grid, or absent: solved where the
   * generator can, resampled otherwise (data-at-grid.ts).
   */
  source?: TransferSource;
  rolloutSteps?: number;
  exportDir?: string;
  /** With exportDir: three .npy files (default) or one MATLAB v7.3 file. */
  exportFormat?: PredictionsFormat;
  /** Return the best/median/worst samples' physical fields (every resolution; rollouts: every frame). */
  fields?: boolean;
  /** More samples whose fields are returned (rows of the split; out-of-range rows are an error). */
  indices?: number[];
  /** Error spectrum and physics check of every resolution; LiNO: the branch spectra at the training grid (docs/diagnostics.md). */
  diagnostics?: boolean;
  onProgress?: (fraction: number, message: string) => void;
  signal?: AbortSignal;
}

type Stats = { mean: number; std: number };

/** Samples the branch spectra average (each needs one light-map pass and width x branches FFTs per block). */
const BRANCH_SAMPLES = 16;

/** Re-encodes a split normalized with `from` into the statistics `to` (coordinate channels untouched). */
export function reencode(split: TrainSplit, coord: number, from: { x: Stats; y: Stats; eps: number }, to: { x: Stats; y: Stats; eps: number }): TrainSplit {
  const conv = (a: ArrayLike<number>, shape: readonly number[], f: Stats, t: Stats, skipLast: number) => {
    const C = shape[shape.length - 1]!;
    const out = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const c = i % C;
      out[i] = c >= C - skipLast ? a[i]! : ((a[i]! * (f.std + from.eps) + f.mean) - t.mean) / (t.std + to.eps);
    }
    return { data: out, shape: [...shape] };
  };
  return { x: conv(split.x.data, split.x.shape, from.x, to.x, coord), y: conv(split.y.data, split.y.shape, from.y, to.y, 0) };
}

type Fields = NonNullable<EvaluationResult['resolutions'][number]['fields']>;

/** The best, median, worst and asked-for samples decoded to physical units, one array per channel (coordinates left out). */
function sampleFields(
  split: TrainSplit,
  coord: number,
  stats: { x: Stats; y: Stats; eps: number; applied: boolean },
  ev: { best: number; median: number; worst: number; perSample: { index: number; relL2: number; relL2Decoded: number }[]; predictions?: { data: Float32Array; shape: number[] }; sampleSteps?: number[][] },
  indices: number[],
  /** The native grid's best/median/worst rows: a transfer grid shows the same samples (absent: this grid's own). */
  picked?: { best: number; median: number; worst: number },
  /** Each row's sample in the source (the split's own indices; the re-encoded copy has none). */
  sourceIndices?: ArrayLike<number>,
): Fields {
  const channels = (a: ArrayLike<number>, shape: readonly number[], row: number, keep: number, st: Stats | null) => {
    const C = shape[shape.length - 1]!;
    const P = shape.slice(1, -1).reduce((x, y) => x * y, 1);
    const out: number[][] = Array.from({ length: keep }, () => new Array<number>(P));
    const base = row * P * C;
    for (let p = 0; p < P; p++) for (let c = 0; c < keep; c++) {
      const v = a[base + p * C + c]!;
      out[c]![p] = st ? v * (st.std + stats.eps) + st.mean : v;
    }
    return out;
  };
  const pred = ev.predictions!;
  const cx = split.x.shape[split.x.shape.length - 1]! - coord;
  // Autoregressive targets may hold more frames than the rollout asked for: show the rolled-out ones.
  const cy = pred.shape[pred.shape.length - 1]!;
  const picks: { which: Fields[number]['which']; index: number }[] = [
    ...(['best', 'median', 'worst'] as const).map((which) => ({ which, index: (picked ?? ev)[which] })),
    ...indices.map((index) => ({ which: 'index' as const, index })),
  ];
  return picks.map(({ which, index }) => {
    const s = ev.perSample.find((q) => q.index === index);
    const steps = ev.sampleSteps?.[index];
    const sourceIndex = sourceIndices?.[index];
    return {
      which,
      index,
      ...(sourceIndex !== undefined ? { sourceIndex } : {}),
      relL2: s?.relL2 ?? Number.NaN,
      relL2Decoded: s?.relL2Decoded ?? Number.NaN,
      input: channels(split.x.data, split.x.shape, index, cx, stats.applied ? stats.x : null),
      reference: channels(split.y.data, split.y.shape, index, cy, stats.applied ? stats.y : null),
      prediction: channels(pred.data, pred.shape, index, pred.shape[pred.shape.length - 1]!, null),
      ...(steps ? { stepRelL2: steps } : {}),
    };
  });
}

export async function evaluateRun(run: RunHandle, o: EvaluateRunOptions = {}): Promise<EvaluationResult> {
  const cfg = parseRunConfig(run.readConfig(), run.configPath);
  const which = o.checkpoint ?? 'best';
  const ck = loadCheckpoint(run.dir, which);
  if (!ck) throw new Error(`${run.dir}: no checkpoints/${which} to evaluate (the run has not finished an epoch)`);
  const trainStats = ck.state.normalizer as { x: Stats; y: Stats; eps: number; applied: boolean };
  const splitName = o.split ?? 'val';
  const dataSpec = o.data ?? cfg.data;
  const workspace = resolve(run.dir, '..', '..');
  const base = await loadTrainData(dataSpec, { signal: o.signal, workspace });
  const model = modelFor(cfg, base);
  try {
    const weights = { tensors: new Map([...ck.weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }])), metadata: {} };
    loadStateDict(model, weights, join(run.dir, 'checkpoints', which, 'weights.safetensors'));
    const baseGrid = base.manifest.grid;
    const extra = (o.resolutions ?? []).filter((r) => !(baseGrid.every((g) => g === r)));
    const results: EvaluationResult['resolutions'] = [];
    let branches: BranchSpectraReport | undefined;
    let native: { best: number; median: number; worst: number; n: number } | undefined;
    const total = 1 + extra.length;
    for (let k = 0; k < total; k++) {
      if (o.signal?.aborted) throw new Error('evaluation cancelled');
      let data: TrainData = base;
      let made: { origin: string; source: TransferSource } | undefined;
      if (k > 0) {
        const r = extra[k - 1]!;
        const at = await dataAtGrid(dataSpec, base, r, o.source, {
          workspace, split: splitName, ...(o.signal ? { signal: o.signal } : {}),
          onProgress: (m) => o.onProgress?.(k / total, m),
        });
        data = at.data;
        made = { origin: at.origin, source: at.source };
        const got = data.manifest.grid;
        if (got.length !== baseGrid.length || got.some((g) => g !== r)) throw new Error(`evaluate: resolution ${r} asked for, the data came out at ${got.join('x')}`);
      }
      const split = data[splitName];
      if (!split || split.x.shape[0] === 0) throw new Error(`evaluate: the '${splitName}' split of this run's data is empty`);
      const own = data.manifest.normalization;
      const enc = own.applied && trainStats.applied ? reencode(split, data.manifest.coordChannels, own, trainStats) : split;
      const ar = autoregressiveSpec(data);
      // Refuse an out-of-range sample before spending the evaluation on it.
      const indices = o.indices ?? [];
      const n = enc.x.shape[0]!;
      const bad = indices.find((i) => i >= n);
      if (bad !== undefined) throw new Error(`evaluate: indices: sample ${bad} asked for, the '${splitName}' split at ${data.manifest.grid.join('x')} has ${n} samples (0..${n - 1})`);
      o.onProgress?.(k / total, `evaluating ${splitName} at ${data.manifest.grid.join('x')}`);
      const ev = await evaluateSplit(model, enc, {
        yStats: trainStats.applied ? { mean: trainStats.y.mean, std: trainStats.y.std, eps: trainStats.eps } : { mean: 0, std: 1, eps: 0 },
        batchSize: cfg.batchSize,
        keepPredictions: !!o.exportDir || !!o.fields || !!o.diagnostics,
        ...(ar ? { autoregressive: { tIn: ar.tIn, steps: o.rolloutSteps ?? ar.tOut } } : {}),
      });
      let exported: { predictionsFile: string; files: string[] } | undefined;
      if (o.exportDir && ev.predictions) {
        const yStats = trainStats.applied ? { ...trainStats.y, eps: trainStats.eps } : null;
        // The re-encoded copy has no indices: the split's own name each row's sample in the source.
        const sourceIndices = (split as { indices?: ArrayLike<number> }).indices;
        exported = await exportPredictions(o.exportDir, `${run.id}-${which}-${splitName}-${ev.grid.join('x')}`, o.exportFormat ?? 'npy', enc, ev.predictions, yStats, sourceIndices);
      }
      // the same samples at every grid: the native grid's best/median/worst (same split rows, same source samples)
      let fields = o.fields && ev.predictions ? sampleFields(enc, data.manifest.coordChannels, trainStats, ev, indices, native?.n === n ? native : undefined, (split as { indices?: ArrayLike<number> }).indices) : undefined;
      if (k === 0) native = { best: ev.best, median: ev.median, worst: ev.worst, n };
      const diagIn: SplitDiagnosticsInput | undefined = o.diagnostics && ev.predictions ? {
        split: enc, coordChannels: data.manifest.coordChannels, stats: trainStats, predictions: ev.predictions,
        benchmark: data.manifest.benchmark ?? (dataSpec as { benchmark?: string }).benchmark,
        generator: (data.manifest as { source?: { generator?: { params?: Record<string, unknown> } } }).source?.generator?.params,
      } : undefined;
      const diagnostics = diagIn ? splitDiagnostics(diagIn) : undefined;
      // the shown samples' own spectrum and residual maps (the split's carry the first sample's maps only)
      if (fields && diagIn) {
        const per = sampleDiagnostics(diagIn, fields.map((f) => f.index));
        fields = fields.map((f) => ({ ...f, diagnostics: per.get(f.index)! }));
      }
      // which branch carries which frequencies: the same model, the training grid, the first samples
      if (o.diagnostics && k === 0 && model instanceof LinoOperator) branches = await branchSpectra(model, enc.x, { maxSamples: BRANCH_SAMPLES, batchSize: cfg.batchSize });
      const origin = made?.origin ?? (dataSpec.kind === 'synthetic' ? `synthetic data computed at s = ${gridSide(ev.grid)}` : gridOrigin(data.manifest as unknown as PreparedDataset['manifest'], false));
      results.push({ grid: ev.grid, origin, ...(made ? { source: made.source } : {}), n: ev.n, metrics: ev.metrics, order: ev.order, perSample: ev.perSample, best: ev.best, median: ev.median, worst: ev.worst, ...(exported ? { predictionsFile: exported.predictionsFile, exportFiles: exported.files } : {}), ...(fields ? { fields } : {}), ...(diagnostics ? { diagnostics } : {}) });
    }
    o.onProgress?.(1, 'evaluated');
    return { runId: run.id, checkpoint: which, epoch: ck.state.epoch, split: splitName, resolutions: results, ...(branches ? { branchSpectra: branches } : {}) };
  } finally {
    model.dispose();
  }
}
