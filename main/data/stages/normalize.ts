// Unit-Gaussian normalization with ONE scalar mean and ONE scalar std (Bessel's correction) over
// every element of the training split: (v - mean) / (std + 1e-5), as the release does.
import { DataError } from '../formats/errors';

export const NORM_EPS = 1e-5;

export interface ScalarStats { mean: number; std: number; count: number; min: number; max: number }

/** Two-pass mean/std in float64 over several arrays taken together. */
export function scalarStats(parts: ArrayLike<number>[], field = 'normalizer'): ScalarStats {
  let count = 0, sum = 0, min = Infinity, max = -Infinity;
  for (const p of parts) for (let i = 0; i < p.length; i++) { const v = p[i]; sum += v; if (v < min) min = v; if (v > max) max = v; }
  for (const p of parts) count += p.length;
  if (count < 2) throw new DataError('', field, `statistics need at least 2 values, the training split has ${count}`);
  const mean = sum / count;
  let ss = 0;
  for (const p of parts) for (let i = 0; i < p.length; i++) { const d = p[i] - mean; ss += d * d; }
  return { mean, std: Math.sqrt(ss / (count - 1)), count, min, max };
}

export function encodeInPlace(a: Float32Array | Float64Array, s: ScalarStats): void {
  const k = 1 / (s.std + NORM_EPS);
  for (let i = 0; i < a.length; i++) a[i] = (a[i] - s.mean) * k;
}

export function decode(a: ArrayLike<number>, s: ScalarStats): Float32Array {
  const out = new Float32Array(a.length);
  const k = s.std + NORM_EPS;
  for (let i = 0; i < a.length; i++) out[i] = a[i] * k + s.mean;
  return out;
}
