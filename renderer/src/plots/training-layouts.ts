// Layouts of the Training view's two per-run system plots, pure so a unit test can read them:
// the gradient norm with the learning rate in a subplot of its own (an overlaid right axis put
// its exponent labels over the grid), and memory on "nice" ticks in MiB or GiB.
type Layout = Record<string, unknown>;

/** A 1-2-5 step for about `count` ticks over [0, max] (never 0: an empty or zero range gets 1). */
export function niceStep(max: number, count = 4): number {
  if (!(max > 0) || !Number.isFinite(max)) return 1;
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  const e = 1e-9; // 0.001 / 2 / 1e-4 is 5.000000000000001
  return (f <= 1 + e ? 1 : f <= 2 + e ? 2 : f <= 5 + e ? 5 : 10) * mag;
}

/** Ticks 0, step, ... up to the first tick at or above max (the range ends on a tick, tight). */
export function niceTicks(max: number, count = 4): number[] {
  const step = niceStep(max, count);
  const n = Math.max(1, Math.ceil(max / step - 1e-9));
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

export interface MemoryScale {
  unit: 'MiB' | 'GiB';
  /** Bytes per unit: divide byte counts by this to plot them. */
  divisor: number;
  /** The right axis: title with the unit, nice tick values, a range ending on the top tick. */
  axis: Layout;
}

/** Memory axis for byte counts: GiB from 1 GiB up, MiB below; ticks on 1-2-5 steps from 0. */
export function memoryScale(bytes: readonly number[]): MemoryScale {
  const finite = bytes.filter((b) => Number.isFinite(b) && b > 0);
  const maxBytes = finite.length > 0 ? Math.max(...finite) : 0;
  const unit = maxBytes >= 2 ** 30 ? 'GiB' : 'MiB';
  const divisor = unit === 'GiB' ? 2 ** 30 : 2 ** 20;
  const ticks = niceTicks(maxBytes / divisor, 5);
  const top = ticks[ticks.length - 1]!;
  const axis: Layout = {
    title: `Memory (${unit})`,
    overlaying: 'y',
    side: 'right',
    tickmode: 'array',
    tickvals: ticks,
    ticktext: ticks.map((t) => `${t}`),
    range: [0, top],
    showgrid: false,
  };
  return { unit, divisor, axis };
}

/** A rate as a short exponent label: 0.001 -> "1e-3", 0.00025 -> "2.5e-4", 0 -> "0". */
export function rateLabel(v: number): string {
  if (v === 0) return '0';
  const [m, e] = v.toExponential(2).split('e');
  return `${Number(m)}e${Number(e)}`;
}

/**
 * Gradient norm (top, y) and learning rate (bottom strip, y2) sharing the step axis. The rate gets
 * its own three or so ticks from 0, labelled "1e-3" (rateLabel): no label overlaps another axis'.
 * Computing them also keeps a constant rate (StepLR before its first step) from an arbitrary
 * autorange around it.
 */
export function gradNormLayout(xaxis: Layout, gradScale: 'log' | 'linear', lr: readonly number[]): Layout {
  const v = lr.filter((x) => Number.isFinite(x) && x >= 0);
  const ticks = niceTicks(v.length > 0 ? Math.max(...v) : 0, 2);
  return {
    xaxis: { ...xaxis, anchor: 'y2' },
    // dtick D2: a log axis in a short panel otherwise labels every minor tick (2, 3, ... 9), overlapping.
    yaxis: { title: 'Gradient norm', type: gradScale, domain: [0.38, 1], ...(gradScale === 'log' ? { dtick: 'D2' } : {}) },
    yaxis2: {
      title: 'LR',
      domain: [0, 0.26],
      anchor: 'x',
      tickmode: 'array',
      tickvals: ticks,
      ticktext: ticks.map(rateLabel),
      range: [0, ticks[ticks.length - 1]!],
      showgrid: false,
    },
    legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 },
    margin: { l: 70, r: 20, t: 50, b: 50 },
  };
}
