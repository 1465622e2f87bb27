// Pure helpers for the curve plots' axes (no React, no API): x by optimizer step, epoch or wall
// time, and the axis choices the views persist. node:test checks them.
import type { EpochMetrics, StepMetrics } from '../../../main/api/contract';

export type XMode = 'step' | 'epoch' | 'wall';
export type AxisScale = 'linear' | 'log';
export const validXMode = (v: unknown): v is XMode => v === 'step' || v === 'epoch' || v === 'wall';
export const validScale = (v: unknown): v is AxisScale => v === 'linear' || v === 'log';

export const X_TITLES: Record<XMode, string> = { step: 'Optimizer step', epoch: 'Epoch', wall: 'Wall time (s, training)' };

/**
 * Seconds of training before each epoch starts: the sum of the earlier epochs' epochSeconds
 * (pauses and queueing excluded: the records hold no clock time). Epochs missing from the records
 * count as their neighbours' mean so a gap does not pull later points back.
 */
function epochStarts(epochs: EpochMetrics[]): Map<number, number> {
  const starts = new Map<number, number>();
  let t = 0;
  for (const e of epochs) {
    starts.set(e.epoch, t);
    t += e.epochSeconds;
  }
  starts.set((epochs[epochs.length - 1]?.epoch ?? 0) + 1, t);
  return starts;
}

/** x of every step record: its global step, fractional epoch (epoch e's k-th of n steps at e-1+k/n), or seconds of training. */
export function stepX(steps: StepMetrics[], epochs: EpochMetrics[], mode: XMode): number[] {
  if (mode === 'step') return steps.map((s) => s.step);
  const perEpoch = new Map<number, number>();
  for (const s of steps) perEpoch.set(s.epoch, (perEpoch.get(s.epoch) ?? 0) + 1);
  const seen = new Map<number, number>();
  if (mode === 'epoch') {
    return steps.map((s) => {
      const k = (seen.get(s.epoch) ?? 0) + 1;
      seen.set(s.epoch, k);
      return s.epoch - 1 + k / perEpoch.get(s.epoch)!;
    });
  }
  const starts = epochStarts(epochs);
  const within = new Map<number, number>();
  let lastStart = 0;
  return steps.map((s) => {
    const start = starts.get(s.epoch) ?? lastStart;
    lastStart = start;
    const ms = (within.get(s.epoch) ?? 0) + s.stepMs;
    within.set(s.epoch, ms);
    return start + ms / 1000;
  });
}

/** x of every epoch record: the global step it ended at, its number, or seconds of training at its end. */
export function epochX(steps: StepMetrics[], epochs: EpochMetrics[], mode: XMode): (number | null)[] {
  if (mode === 'epoch') return epochs.map((e) => e.epoch);
  if (mode === 'wall') {
    let t = 0;
    return epochs.map((e) => (t += e.epochSeconds));
  }
  const lastStep = new Map<number, number>();
  for (const s of steps) lastStep.set(s.epoch, Math.max(lastStep.get(s.epoch) ?? -Infinity, s.step));
  return epochs.map((e) => lastStep.get(e.epoch) ?? null);
}
