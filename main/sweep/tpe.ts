// Tree-structured Parzen Estimator (Bergstra et al. 2011), univariate as Optuna's TPESampler by
// default: the observations split into the best gamma(n) = min(ceil(0.1 n), 25) ("below") and the
// rest; per axis a Parzen estimator of each (a prior component plus one truncated Gaussian per
// observation, bandwidth the larger distance to a neighbour clipped to [range/min(100, n+1), range];
// lists: counts plus a uniform prior); `candidates` draws from l(x), the one maximizing
// log l(x) - log g(x) wins. No Node library does this with seeds and the layout we need.
import type { Rng } from '../data/generate/rng';
import type { SweepAxis, SweepParams } from './sweep-config';
import { axisBounds, decode, encode, randomPoint } from './space';

export interface Observation {
  params: SweepParams;
  /** Lower is better. */
  value: number;
}

/** erf, Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7). */
function erf(x: number): number {
  const s = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}
const Phi = (z: number) => 0.5 * (1 + erf(z / Math.SQRT2));

interface Parzen { mus: number[]; sigmas: number[]; lo: number; hi: number }

function parzen(points: number[], lo: number, hi: number): Parzen {
  const range = hi - lo;
  const mus = [(lo + hi) / 2, ...points];
  const order = mus.map((m, i) => [m, i] as const).sort((a, b) => a[0] - b[0]);
  const sigmas = new Array<number>(mus.length).fill(range);
  const minSigma = range / Math.min(100, mus.length + 1);
  order.forEach(([m, i], j) => {
    const left = j > 0 ? m - order[j - 1]![0] : m - lo;
    const right = j < order.length - 1 ? order[j + 1]![0] - m : hi - m;
    sigmas[i] = Math.min(range, Math.max(minSigma, left, right));
  });
  sigmas[0] = range; // the prior stays wide
  return { mus, sigmas, lo, hi };
}

function logPdf(p: Parzen, x: number): number {
  let sum = 0;
  for (let i = 0; i < p.mus.length; i++) {
    const mu = p.mus[i]!, s = p.sigmas[i]!;
    const mass = Phi((p.hi - mu) / s) - Phi((p.lo - mu) / s);
    sum += Math.exp(-0.5 * ((x - mu) / s) ** 2) / (s * Math.sqrt(2 * Math.PI) * Math.max(mass, 1e-12));
  }
  return Math.log(sum / p.mus.length + 1e-300);
}

function sampleParzen(p: Parzen, rng: Rng): number {
  const i = Math.floor(rng.uniform() * p.mus.length);
  for (let tries = 0; tries < 100; tries++) {
    const x = p.mus[i]! + p.sigmas[i]! * rng.normal();
    if (x >= p.lo && x <= p.hi) return x;
  }
  return Math.min(p.hi, Math.max(p.lo, p.mus[i]!));
}

/** One axis's best candidate in the encoded space. */
function suggestAxis(a: SweepAxis, below: number[], above: number[], rng: Rng, candidates: number): number {
  const b = axisBounds(a);
  if (!b) {
    const k = (a as { values: unknown[] }).values.length;
    const probs = (xs: number[]) => {
      const w = new Array<number>(k).fill(1 / k);
      for (const x of xs) if (x >= 0) w[x]! += 1;
      const s = w.reduce((u, v) => u + v, 0);
      return w.map((v) => v / s);
    };
    const l = probs(below), g = probs(above);
    let best = 0, bestScore = -Infinity;
    for (let c = 0; c < candidates; c++) {
      let u = rng.uniform(), i = 0;
      while (i < k - 1 && u >= l[i]!) u -= l[i++]!;
      const score = Math.log(l[i]!) - Math.log(g[i]!);
      if (score > bestScore) [best, bestScore] = [i, score];
    }
    return best;
  }
  const l = parzen(below, b[0], b[1]), g = parzen(above, b[0], b[1]);
  let best = l.mus[0]!, bestScore = -Infinity;
  for (let c = 0; c < candidates; c++) {
    const x = sampleParzen(l, rng);
    const score = logPdf(l, x) - logPdf(g, x);
    if (score > bestScore) [best, bestScore] = [x, score];
  }
  return best;
}

/** The next configuration: random for the first `startupTrials` observations, then TPE. */
export function tpeSuggest(axes: readonly SweepAxis[], history: readonly Observation[], rng: Rng, opts: { startupTrials: number; candidates: number }): SweepParams {
  const done = history.filter((h) => Number.isFinite(h.value));
  if (done.length < opts.startupTrials) return randomPoint(axes, rng);
  const sorted = [...done].sort((x, y) => x.value - y.value);
  const nBelow = Math.min(Math.ceil(0.1 * sorted.length), 25);
  const below = sorted.slice(0, nBelow), above = sorted.slice(nBelow);
  const out: SweepParams = {};
  for (const a of axes) {
    const enc = (hs: Observation[]) => hs.map((h) => encode(a, h.params[a.path]!)).filter((x) => Number.isFinite(x));
    out[a.path] = decode(a, suggestAxis(a, enc(below), enc(above), rng, opts.candidates));
  }
  return out;
}
