// The search space of a sweep's axes: the grid's points, random draws, and each axis as a number
// (for TPE and the importance panel: log axes in log10, lists as the index of their value).
import { Rng, mixSeed } from '../data/generate/rng';
import { axisGrid, gridSize, type AxisValue, type SweepAxis, type SweepParams } from './sweep-config';

export { axisGrid, gridSize };

/** The grid's k-th point (the last axis varies fastest). */
export function gridPoint(axes: readonly SweepAxis[], k: number): SweepParams {
  const out: SweepParams = {};
  let rest = k;
  for (let i = axes.length - 1; i >= 0; i--) {
    const g = axisGrid(axes[i]!);
    out[axes[i]!.path] = g[rest % g.length]!;
    rest = Math.floor(rest / g.length);
  }
  return Object.fromEntries(axes.map((a) => [a.path, out[a.path]!]));
}

/** An axis's numeric interval in the encoded space (log10 for log ranges), or null for a list. */
export function axisBounds(a: SweepAxis): [number, number] | null {
  if ('values' in a) return null;
  return 'range' in a ? a.range : [Math.log10(a.logRange[0]), Math.log10(a.logRange[1])];
}

/** An encoded number back to the axis's value (rounded for int axes). */
export function decode(a: SweepAxis, x: number): AxisValue {
  if ('values' in a) return a.values[Math.min(a.values.length - 1, Math.max(0, Math.round(x)))]!;
  const v = 'range' in a ? x : 10 ** x;
  return a.int ? Math.round(v) : Number(v.toPrecision(12));
}

/** A value as a number of the encoded space: list index, log10 for log ranges. */
export function encode(a: SweepAxis, v: AxisValue): number {
  if ('values' in a) return a.values.findIndex((x) => JSON.stringify(x) === JSON.stringify(v));
  return 'range' in a ? Number(v) : Math.log10(Number(v));
}

/** The sampler's stream for configuration k (the same draws on every resume). */
export function samplerRng(samplerSeed: number, k: number): Rng {
  return new Rng(mixSeed(samplerSeed, 0x5eed, k));
}

/** A uniform draw over every axis (log-uniform on log ranges). */
export function randomPoint(axes: readonly SweepAxis[], rng: Rng): SweepParams {
  const out: SweepParams = {};
  for (const a of axes) {
    const b = axisBounds(a);
    if ('values' in a) out[a.path] = a.values[Math.floor(rng.uniform() * a.values.length)]!;
    else if (b) out[a.path] = decode(a, b[0] + (b[1] - b[0]) * rng.uniform());
  }
  return out;
}
