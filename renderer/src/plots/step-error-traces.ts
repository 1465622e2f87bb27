// The step-wise relL2 curve of a rollout: mean over validation trajectories with a ±1 std band,
// one chosen trajectory on top, and the step the player shows marked.
import type { Trace } from './traces';

export interface StepErrorInput {
  /** Per rollout step, over the split's trajectories (metrics.steps). */
  mean: number[];
  std: number[];
  /** The chosen trajectory's per-step relL2 (stepRelL2). */
  trajectory?: number[];
  trajectoryName?: string;
  /** 1-based step to mark, if any. */
  current?: number;
  /** Trajectories behind mean and std; with one there is no spread to draw, and the legend says so. */
  n?: number;
}

/**
 * The band is one closed polygon (upper edge left to right, lower edge back), so it reads as a
 * single legend entry and needs no fill-to-next-trace ordering. Its lower edge stops at 0: a
 * relative error below zero is meaningless. Okabe–Ito blue / vermilion lines keep a 3:1 contrast
 * on both the light and the dark background (exports are light).
 */
export function stepBandTrace(mean: number[], std: number[]): Trace {
  if (mean.length !== std.length) throw new Error(`stepBandTrace: ${mean.length} means, ${std.length} stds`);
  const x = mean.map((_, i) => i + 1);
  const upper = mean.map((m, i) => m + std[i]!);
  const lower = mean.map((m, i) => Math.max(0, m - std[i]!));
  return {
    type: 'scatter',
    mode: 'lines',
    x: [...x, ...x.slice().reverse()],
    y: [...upper, ...lower.reverse()],
    fill: 'toself',
    fillcolor: 'rgba(0,114,178,0.25)',
    line: { width: 0, color: 'rgba(0,114,178,0)' },
    name: '±1 std (validation)',
    hoverinfo: 'skip',
  };
}

export function stepErrorTraces(o: StepErrorInput): Trace[] {
  const x = o.mean.map((_, i) => i + 1);
  const one = o.n === 1;
  const out: Trace[] = [
    ...(one ? [] : [stepBandTrace(o.mean, o.std)]),
    { type: 'scatter', mode: 'lines+markers', x, y: o.mean, name: one ? 'validation (1 trajectory, no ±1 std)' : 'mean (validation)', line: { color: '#0072b2', width: 2 }, marker: { size: 5 } },
  ];
  if (o.trajectory) {
    const t = o.trajectory;
    out.push({ type: 'scatter', mode: 'lines+markers', x: t.map((_, i) => i + 1), y: t, name: o.trajectoryName ?? 'trajectory', line: { color: '#d55e00', width: 2, dash: 'dash' }, marker: { size: 5, symbol: 'square' } });
    if (o.current !== undefined && o.current >= 1 && o.current <= t.length) {
      out.push({ type: 'scatter', mode: 'markers', x: [o.current], y: [t[o.current - 1]], name: `shown step (${o.current})`, marker: { size: 13, color: 'rgba(0,0,0,0)', line: { color: '#d55e00', width: 2.5 } }, hoverinfo: 'skip' });
    }
  }
  return out;
}

/** A dashed vertical line at the shown step (a layout shape, so it spans the whole y range). */
export function currentStepShape(step: number): Record<string, unknown> {
  return { type: 'line', xref: 'x', yref: 'paper', x0: step, x1: step, y0: 0, y1: 1, line: { color: '#8c959f', width: 1.5, dash: 'dot' } };
}
