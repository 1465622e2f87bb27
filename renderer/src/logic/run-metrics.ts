// Pure helpers over a run's metrics records (no React, no API), so node:test can check them:
// merging live events with the history read back from runs.metrics, smoothing, group statistics.
import type { EpochMetrics, StepMetrics } from '../../../main/api/contract';

export interface RunCurves {
  steps: StepMetrics[];
  epochs: EpochMetrics[];
}

export const EMPTY_CURVES: RunCurves = { steps: [], epochs: [] };

/**
 * Adds records to ordered ones without duplicates: live events and the history read back after
 * (re)opening a run overlap, and either may arrive first. Keyed by global step / epoch number; a
 * later copy of the same key wins (a resumed run rewrites the epoch it lost).
 */
export function mergeByKey<T>(existing: T[], incoming: T[], key: (r: T) => number): T[] {
  if (incoming.length === 0) return existing;
  const last = existing.length > 0 ? key(existing[existing.length - 1]!) : -Infinity;
  let ordered = true;
  let prev = last;
  for (const r of incoming) {
    const k = key(r);
    if (!(k > prev)) {
      ordered = false;
      break;
    }
    prev = k;
  }
  if (ordered) return [...existing, ...incoming];
  const map = new Map<number, T>();
  for (const r of existing) map.set(key(r), r);
  for (const r of incoming) map.set(key(r), r);
  return [...map.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

export function mergeCurves(c: RunCurves, steps: StepMetrics[], epochs: EpochMetrics[]): RunCurves {
  const s = mergeByKey(c.steps, steps, (r) => r.step);
  const e = mergeByKey(c.epochs, epochs, (r) => r.epoch);
  return s === c.steps && e === c.epochs ? c : { steps: s, epochs: e };
}

/**
 * Exponential moving average with bias correction (as TensorBoard's smoothing): weight 0 is the
 * raw curve; non-finite values are passed through and do not enter the average.
 */
export function emaSmooth(y: ArrayLike<number>, weight: number): number[] {
  const w = Math.min(Math.max(weight, 0), 0.999);
  const out = new Array<number>(y.length);
  let acc = 0;
  let n = 0;
  for (let i = 0; i < y.length; i++) {
    const v = y[i]!;
    if (!Number.isFinite(v)) {
      out[i] = v;
      continue;
    }
    acc = acc * w + (1 - w) * v;
    n++;
    out[i] = w === 0 ? v : acc / (1 - Math.pow(w, n));
  }
  return out;
}

/** Per-epoch mean and (population) std over several runs' curves; epochs only some runs reached use those runs. */
export function meanStdByEpoch(curves: { epoch: number; value: number }[][]): { epoch: number[]; mean: number[]; std: number[]; n: number[] } {
  const by = new Map<number, number[]>();
  for (const c of curves) for (const p of c) if (Number.isFinite(p.value)) (by.get(p.epoch) ?? by.set(p.epoch, []).get(p.epoch)!).push(p.value);
  const epochs = [...by.keys()].sort((a, b) => a - b);
  const mean: number[] = [];
  const std: number[] = [];
  const n: number[] = [];
  for (const e of epochs) {
    const v = by.get(e)!;
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    mean.push(m);
    std.push(Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length));
    n.push(v.length);
  }
  return { epoch: epochs, mean, std, n };
}

/** Flattens a config to dotted keys ('model.width' -> 32) for showing only what differs between runs. */
export function flattenConfig(o: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (o != null && typeof o === 'object' && !Array.isArray(o)) {
    for (const [k, v] of Object.entries(o as Record<string, unknown>)) flattenConfig(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = Array.isArray(o) ? o.join('+') : String(o);
  return out;
}

/** Keys ignored when comparing configs: identity and bookkeeping, not choices. */
const NOT_A_CHOICE = /^(id|name|group|createdAt|resolvedData)(\.|$)/;

/**
 * For each run, the config entries whose value is not the same in every run. With `applies`, a
 * key counts only for the runs it applies to (a FNO run's config still carries LiNO's default
 * model.components: it neither makes the key differ nor shows in that run's list).
 */
export function configDifferences(configs: Record<string, unknown>[], applies: (config: Record<string, unknown>, key: string) => boolean = () => true): Record<string, string>[] {
  const flat = configs.map((c) => flattenConfig(c));
  const keys = new Set(flat.flatMap((f) => Object.keys(f)));
  const differing = [...keys].filter((k) => {
    if (NOT_A_CHOICE.test(k)) return false;
    const values = flat.flatMap((f, i) => (applies(configs[i]!, k) ? [f[k] ?? '∅'] : []));
    // A kind's own field differs when its values do, or when it is not every run's (the kinds differ).
    return values.length > 0 && (new Set(values).size > 1 || values.length < flat.length);
  }).sort();
  return flat.map((f, i) => Object.fromEntries(differing.filter((k) => applies(configs[i]!, k)).map((k) => [k, f[k] ?? '—'])));
}

/**
 * A run's Test relL2 cell: the test error at its best validation epoch, or '—' with why (a title):
 * data made before test splits were the default has none, or no epoch has finished yet.
 */
export function testCell(r: { bestTestRelL2?: number | null; testSamples?: number | null; epochsDone: number }): { text: string; why?: string } {
  if (r.bestTestRelL2 != null && Number.isFinite(r.bestTestRelL2)) return { text: r.bestTestRelL2.toPrecision(4) };
  if (r.testSamples === 0) return { text: '—', why: 'No test split: the data this run trained on has 0 test samples (a dataset made before test splits were the default). Generate or prepare the data again with Test samples above 0.' };
  if (r.testSamples == null && r.epochsDone > 0) return { text: '—', why: 'No test error recorded: the run does not record its data\'s split (an older or imported run).' };
  return { text: '—', why: 'No epoch has finished yet: the test error is measured at each epoch\'s validation.' };
}

/** Seconds as a number for a "(s)" column: 97.3, 1520 (tables state the unit in the header). */
export function secondsCell(s: number | null | undefined): string {
  if (s == null || !Number.isFinite(s) || s < 0) return '—';
  // a tiny run's whole wall time is under a second: "0.034", not "0.0"
  return s >= 100 ? s.toFixed(0) : s >= 1 || s === 0 ? s.toFixed(1) : s.toPrecision(2);
}

/** Milliseconds in plain digits: "99.6 ms" reads "100", never "1.0e+2"; "12", "3.4", "0.52". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms >= 9.95) return ms.toFixed(0);
  if (ms >= 0.995) return ms.toFixed(1);
  return ms.toPrecision(2);
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '—';
  if (s < 10 && s > 0) return `${s.toPrecision(2)} s`;
  if (s < 60) return `${s.toFixed(0)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** Engine fields newer engines add to RunSummary (absent from older ones). */
export interface RunTimingFields {
  trainSeconds?: number | null;
  queueSeconds?: number | null;
}

/**
 * Train and queue time of a run. The engine's own fields when it sends them; otherwise train time
 * is the sum of the recorded epochs' durations and the rest of the wall time (queue, start-up and
 * pauses) is reported as waiting, marked `estimated`.
 */
export function runTimes(run: RunTimingFields, wallSeconds: number | null, epochSeconds: number[] | undefined): { train: number | null; queue: number | null; estimated: boolean } {
  if (typeof run.trainSeconds === 'number') return { train: run.trainSeconds, queue: typeof run.queueSeconds === 'number' ? run.queueSeconds : null, estimated: false };
  if (!epochSeconds) return { train: null, queue: null, estimated: true };
  const train = epochSeconds.reduce((a, b) => a + b, 0);
  return { train, queue: wallSeconds == null ? null : Math.max(0, wallSeconds - train), estimated: true };
}

/**
 * Seconds left for `remaining` epochs: the median duration of the last (up to) five epochs, so an
 * epoch that held a pause (the engine's epochSeconds is wall time) does not stretch the estimate.
 * Computed from the records only, no clock: it stands still while the run is paused.
 */
/**
 * The Training view's ETA: from the recorded epochs once there is one; during the first epoch the
 * engine's step-based figure (from the 3rd step on). Neither moves while the run is paused.
 */
export function runEta(epochSeconds: number[], remaining: number | null, stepEta: number | null | undefined): number | null {
  if (epochSeconds.length > 0 && remaining != null) return etaFromEpochs(epochSeconds, remaining);
  return stepEta != null && Number.isFinite(stepEta) && stepEta >= 0 ? stepEta : null;
}

export function etaFromEpochs(epochSeconds: number[], remaining: number): number | null {
  const recent = epochSeconds.filter((s) => Number.isFinite(s) && s >= 0).slice(-5).sort((a, b) => a - b);
  if (recent.length === 0 || !(remaining >= 0)) return null;
  const mid = recent.length >> 1;
  const median = recent.length % 2 ? recent[mid]! : (recent[mid - 1]! + recent[mid]!) / 2;
  return remaining * median;
}
