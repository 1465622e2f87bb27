// Line traces of the diagnostics (docs/diagnostics.md): shell spectra of error and truth, the
// per-step fRMSE bands of a rollout, and per LiNO block and branch the contribution spectra.
import type { Trace } from './traces';
import { componentColor } from './component-colors';
import type { EvaluationResult } from '../../../main/api/contract';

type Diagnostics = NonNullable<EvaluationResult['resolutions'][number]['diagnostics']>;
type Spectrum = NonNullable<Diagnostics['spectrum']>;
type Branches = NonNullable<EvaluationResult['branchSpectra']>;

const line = (name: string, x: number[], y: (number | null)[], color: string, dash = 'solid'): Trace => ({
  type: 'scatter', mode: 'lines+markers', name, x, y, line: { color, dash, width: 2 }, marker: { size: 4, color },
});

/** E_error(k) and E_truth(k), split mean, on a log axis (zeros dropped: a log axis cannot draw them). */
export function spectrumTraces(s: Spectrum): Trace[] {
  const k = s.mean.error.map((_, i) => i);
  const pos = (v: number) => (v > 0 ? v : null);
  return [
    line('truth', k, s.mean.truth.map(pos), '#0072B2'),
    line('error', k, s.mean.error.map(pos), '#D55E00'),
  ];
}

/** PDEBench's band edges as dotted vertical lines at the first shell of mid and high. */
export function bandShapes(s: Spectrum): Record<string, unknown>[] {
  return [s.bands.iLow, s.bands.iHigh].filter((k) => k < s.mean.error.length).map((k) => ({
    type: 'line', xref: 'x', yref: 'paper', x0: k - 0.5, x1: k - 0.5, y0: 0, y1: 1, line: { dash: 'dot', width: 1, color: '#888' },
  }));
}

/** fRMSE low / mid / high per rollout step (one channel per step). */
export function stepBandTraces(s: Spectrum): Trace[] {
  const x = s.perChannel.map((_, t) => t + 1);
  const colors = { low: '#0072B2', mid: '#009E73', high: '#D55E00' } as const;
  return (['low', 'mid', 'high'] as const).map((b) => line(`fRMSE ${b}`, x, s.perChannel.map((c) => c.fRmse[b]), colors[b]));
}

const DASH = ['solid', 'dash', 'dot', 'dashdot'];

/** One line per block and branch: the contribution's shell spectrum (colour: the branch's, as in every view; dash: block). */
export function branchTraces(b: Branches): Trace[] {
  return b.blocks.flatMap((blk, i) => blk.components.map((k) => {
    const e = blk.spectra[k] ?? [];
    return line(`block ${i + 1} ${k}`, e.map((_, q) => q), e.map((v) => (v > 0 ? v : null)), componentColor(k), DASH[i % DASH.length]);
  }));
}

type Cost = import('../../../main/api/contract').CostReport;

/**
 * Error against seconds per sample (log-log): the solver's resolutions joined by a line (the finest
 * is the reference, with no error: left out), each run at batch 1 (circle) and batched (square).
 */
export function costTraces(r: Cost): Trace[] {
  const solver = r.rows.filter((x) => x.kind === 'solver' && x.relL2 !== null);
  const out: Trace[] = [{
    type: 'scatter', mode: 'lines+markers+text', name: 'solver', x: solver.map((x) => x.secondsPerSample), y: solver.map((x) => x.relL2),
    text: solver.map((x) => (r.benchmark === 'burgers' ? `${x.resolution}` : `${x.resolution}²`)), textposition: 'top center', line: { color: '#000000' }, marker: { size: 7, color: '#000000' },
  }];
  const colors = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
  const names = [...new Set(r.rows.filter((x) => x.kind === 'model').map((x) => x.name))];
  names.forEach((name, i) => {
    const rows = r.rows.filter((x) => x.kind === 'model' && x.name === name);
    out.push({
      type: 'scatter', mode: 'markers', name: `${name} (${rows[0]!.model})`, x: rows.map((x) => x.secondsPerSample), y: rows.map((x) => x.relL2),
      text: rows.map((x) => `batch ${x.batch}`), marker: { size: 9, color: colors[i % colors.length], symbol: rows.map((x) => (x.batch === 1 ? 'circle' : 'square')) },
    });
  });
  return out;
}

/** Several runs' error spectra on one axis (the first run's truth spectrum for scale). */
export function overlayTraces(runs: { name: string; spectrum: Spectrum }[]): Trace[] {
  const colors = ['#D55E00', '#0072B2', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
  const first = runs[0];
  if (!first) return [];
  const k = first.spectrum.mean.truth.map((_, i) => i);
  return [
    line('truth', k, first.spectrum.mean.truth.map((v) => (v > 0 ? v : null)), '#000000', 'dot'),
    ...runs.map((r, i) => line(`error: ${r.name}`, r.spectrum.mean.error.map((_, q) => q), r.spectrum.mean.error.map((v) => (v > 0 ? v : null)), colors[i % colors.length]!)),
  ];
}

type Summary = Spectrum['mean'];
const pos = (v: number) => (v > 0 ? v : null);
const COLORS = ['#D55E00', '#0072B2', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];

/**
 * The error spectra of one or more predictions on one axis, each with its truth's (the views' spectrum
 * figure: a sample and its split, a rollout step, runs overlaid). Colour per entry; error solid, truth
 * dotted; `dash` overrides the error's (a split mean beside a sample: dashed).
 */
export function summaryTraces(entries: { name: string; summary: Summary; dash?: string; truth?: boolean }[]): Trace[] {
  return entries.flatMap((e, i) => {
    const k = e.summary.error.map((_, q) => q);
    const c = COLORS[i % COLORS.length]!;
    return [
      line(`error: ${e.name}`, k, e.summary.error.map(pos), c, e.dash ?? 'solid'),
      ...(e.truth === false ? [] : [line(`truth: ${e.name}`, k, e.summary.truth.map(pos), c, 'dot')]),
    ];
  });
}

/** Band edges for a spectrum of `shells` shells (bandShapes for a summary rather than a report). */
export function bandEdgeShapes(bands: { iLow: number; iHigh: number }, shells: number): Record<string, unknown>[] {
  return [bands.iLow, bands.iHigh].filter((k) => k < shells).map((k) => ({
    type: 'line', xref: 'x', yref: 'paper', x0: k - 0.5, x1: k - 0.5, y0: 0, y1: 1, line: { dash: 'dot', width: 1, color: '#888' },
  }));
}

/**
 * The relative error per band (low / mid / high) against the rollout step: the sample's solid, the
 * split's mean dashed, so the drift of the spectrum along the rollout shows as the bands part.
 */
export function stepRelativeTraces(sample: Summary[] | null, split: Summary[] | null): Trace[] {
  const colors = { low: '#0072B2', mid: '#009E73', high: '#D55E00' } as const;
  const of = (rows: Summary[], who: string, dash: string) => (['low', 'mid', 'high'] as const).map((b) => line(`${b}, ${who}`, rows.map((_, t) => t + 1), rows.map((c) => c.bandRelative[b]), colors[b], dash));
  return [...(sample ? of(sample, 'this trajectory', 'solid') : []), ...(split ? of(split, 'split mean', 'dash') : [])];
}
