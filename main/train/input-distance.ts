// How far a Playground input lies from a run's training inputs (values on the
// training range's edge count as inside): the training samples' per-sample means and spreads and their value range, compared
// with the input's. Two things a plain [min, max] test gets wrong are handled here:
// - the stored training values went through float32 and the normalizer's round trip, so Darcy's
//   maximum reads 11.999989 and a freshly drawn 12 would count as outside: values within the data's
//   float tolerance of the range (or of a level) count as on it;
// - a binary coefficient (Darcy's 3 and 12) is recognised: a value between its two levels is one the
//   model never saw, and its spread follows from the fraction at the high level (only the mean is scored).
import type { PlaygroundPrediction } from '../runs/playground-records';

/** Per-sample statistics of the training inputs' physical channels (coordinates left out). */
export interface TrainInputProfile {
  /** Training samples profiled. */
  count: number;
  meanOfMeans: number; stdOfMeans: number;
  meanOfStds: number; stdOfStds: number;
  /** The lowest and highest per-sample mean and spread among the training samples. */
  meansRange: [number, number];
  stdsRange: [number, number];
  min: number; max: number;
  /** Closer than this to the range's edge or to a level counts as on it (float32 storage, normalizer round trip). */
  tol: number;
  /** The two values of a binary coefficient, when every training value is within tol of min or max. */
  levels: [number, number] | null;
}

/**
 * Relative float tolerance of stored training values: float32 keeps ~6e-8, the normalizer's decode
 * (stats saved and re-read) loses ~1e-6 of the range (the 11.999989 for 12); 1e-4 of the
 * range leaves a margin and is far below any distance worth reporting.
 */
const REL_TOL = 1e-4;

const meanStd = (a: number[]): [number, number] => {
  const mu = a.reduce((p, q) => p + q, 0) / a.length;
  return [mu, Math.sqrt(a.reduce((p, q) => p + (q - mu) ** 2, 0) / a.length)];
};

/** The profile of `count` training samples, `valuesOf(s)` giving sample s's physical values (read twice). */
export function inputProfile(count: number, valuesOf: (s: number) => ArrayLike<number>): TrainInputProfile {
  const means: number[] = [], stds: number[] = [];
  let min = Infinity, max = -Infinity;
  for (let s = 0; s < count; s++) {
    const v = valuesOf(s);
    let sum = 0, sq = 0;
    for (let i = 0; i < v.length; i++) {
      const x = v[i]!;
      sum += x; sq += x * x;
      if (x < min) min = x;
      if (x > max) max = x;
    }
    const mean = sum / v.length;
    means.push(mean);
    stds.push(Math.sqrt(Math.max(0, sq / v.length - mean * mean)));
  }
  const tol = Math.max(REL_TOL * Math.max(max - min, Math.abs(min), Math.abs(max)), 1e-12);
  let binary = max - min > 2 * tol;
  for (let s = 0; s < count && binary; s++) {
    const v = valuesOf(s);
    for (let i = 0; i < v.length; i++) if (Math.abs(v[i]! - min) > tol && Math.abs(v[i]! - max) > tol) { binary = false; break; }
  }
  const [meanOfMeans, stdOfMeans] = meanStd(means);
  const [meanOfStds, stdOfStds] = meanStd(stds);
  return {
    count, meanOfMeans, stdOfMeans, meanOfStds, stdOfStds,
    meansRange: [Math.min(...means), Math.max(...means)], stdsRange: [Math.min(...stds), Math.max(...stds)],
    min, max, tol, levels: binary ? [min, max] : null,
  };
}

/** Student's t 0.9995 quantile by degrees of freedom (the largest tabulated df not above the asked one). */
const T9995: [number, number][] = [[1, 636.6], [2, 31.6], [3, 12.92], [4, 8.61], [5, 6.87], [6, 5.96], [7, 5.41], [8, 5.04], [9, 4.78], [10, 4.59], [15, 4.07], [20, 3.85], [30, 3.65], [60, 3.46], [120, 3.37], [Infinity, 3.29]];
const t9995 = (df: number) => T9995.filter(([d]) => d <= Math.max(df, 1)).at(-1)![1];

/**
 * Where a fresh sample's statistic plausibly lies: the training samples' own range, widened to the
 * 99.9 % prediction interval (mean +- t sd sqrt(1 + 1/n)); a few training samples span little of
 * what their generator draws, and the interval says how little is known.
 */
function plausible(range: [number, number], mean: number, sd: number, n: number): [number, number] {
  const w = n > 1 ? t9995(n - 1) * sd * Math.sqrt(n / (n - 1)) * Math.sqrt(1 + 1 / n) : 0;
  return [Math.min(range[0], mean - w), Math.max(range[1], mean + w)];
}

/** How many sds `v` lies beyond [lo, hi] (0 inside). */
const beyond = (v: number, [lo, hi]: [number, number], sd: number) => (v < lo ? (lo - v) / sd : v > hi ? (v - hi) / sd : 0);
const signed = (z: number) => `${z >= 0 ? '+' : ''}${z.toFixed(1)}`;
const pct = (f: number) => `${(100 * f).toFixed(f > 0 && f < 0.001 ? 2 : 1)} %`;

/**
 * The input's distance: 'out' when over 1 % of its points are off the training values (outside the
 * range, or between a binary coefficient's levels) or a statistic lies over 4 training sds beyond
 * where a fresh sample's plausibly lies; 'edge' for any such point or over 1.5 sds; 'in' otherwise.
 * A statistic is scored beyond that interval, not against the training mean: a fresh draw from the
 * run's generator lies inside it, and must read as 'in'.
 */
export function inputDistance(pr: TrainInputProfile, channels: ArrayLike<number>[]): PlaygroundPrediction['distance'] {
  let sum = 0, sq = 0, cnt = 0, outside = 0, between = 0, high = 0;
  for (const ch of channels) for (let i = 0; i < ch.length; i++) {
    const v = ch[i]!;
    sum += v; sq += v * v; cnt++;
    if (v < pr.min - pr.tol || v > pr.max + pr.tol) outside++;
    else if (pr.levels && Math.abs(v - pr.levels[0]) > pr.tol && Math.abs(v - pr.levels[1]) > pr.tol) between++;
    else if (pr.levels && Math.abs(v - pr.levels[1]) <= pr.tol) high++;
  }
  const mean = sum / cnt, std = Math.sqrt(Math.max(0, sq / cnt - mean * mean));
  // a floor on the spreads: a training set of one sample (or of constant means) still gives finite scores
  const floor = 0.02 * (pr.max - pr.min || 1);
  const sdMean = Math.max(pr.stdOfMeans, floor), sdStd = Math.max(pr.stdOfStds, floor);
  const zMean = (mean - pr.meanOfMeans) / sdMean;
  const zStd = (std - pr.meanOfStds) / sdStd;
  const meanAt = plausible(pr.meansRange, pr.meanOfMeans, pr.stdOfMeans, pr.count);
  const stdAt = plausible(pr.stdsRange, pr.meanOfStds, pr.stdOfStds, pr.count);
  const score = Math.max(beyond(mean, meanAt, sdMean), pr.levels ? 0 : beyond(std, stdAt, sdStd));
  const off = (outside + between) / cnt;
  const level = off > 0.01 || score > 4 ? 'out' : off > 0 || score > 1.5 ? 'edge' : 'in';
  const parts = [`mean ${signed(zMean)} sd, spread ${signed(zStd)} sd from the training samples'`];
  if (pr.levels) {
    const [lo, hi] = pr.levels;
    const f = (m: number) => (m - lo) / (hi - lo);
    parts.push(`${pct(high / cnt)} at ${hi.toPrecision(3)} (training samples ${pct(f(pr.meansRange[0]))} to ${pct(f(pr.meansRange[1]))})`);
    if (between) parts.push(`${pct(between / cnt)} of points between the training's two values ${lo.toPrecision(3)} and ${hi.toPrecision(3)}`);
  }
  if (outside) parts.push(`${pct(outside / cnt)} of points outside the training range [${pr.min.toPrecision(3)}, ${pr.max.toPrecision(3)}]`);
  const why = parts.join('; ');
  const label = level === 'in' ? `Like the training inputs (${why})` : level === 'edge' ? `At the edge of the training data (${why})` : `Far from the training data (${why})`;
  return { zMean, zStd, outside: off, trainRange: [pr.min, pr.max], score, level, label };
}
