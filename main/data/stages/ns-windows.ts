// Navier-Stokes windows over trajectories u [N, s, s, T]: as the release, one window per trajectory
// (frames 0..T_in-1 as history, the next T_out as targets); optionally sliding windows (training
// split only) for more training pairs. The split is made over trajectories first, so no trajectory
// contributes to two splits.
import { DataError } from '../formats/errors';

export interface WindowSpec { tIn: number; tOut: number; sliding?: boolean; stride?: number }

/** Window start frames for a trajectory of T frames. */
export function windowStarts(T: number, spec: WindowSpec, sliding: boolean, file = ''): number[] {
  const { tIn, tOut } = spec;
  if (!Number.isInteger(tIn) || !Number.isInteger(tOut) || tIn < 1 || tOut < 1) throw new DataError(file, 'ns', `T_in ${tIn}, T_out ${tOut}`, 'positive integers');
  if (tIn + tOut > T) throw new DataError(file, 'u', `trajectories have ${T} frames, T_in + T_out = ${tIn + tOut}`, `at least ${tIn + tOut} frames`);
  if (!sliding) return [0];
  const stride = spec.stride ?? 1;
  if (!Number.isInteger(stride) || stride < 1) throw new DataError(file, 'ns.stride', `stride ${stride}`, 'a positive integer');
  const out: number[] = [];
  for (let t = 0; t + tIn + tOut <= T; t += stride) out.push(t);
  return out;
}

/**
 * Cuts windows from trajectories `traj` ([n, P, T] flattened: P grid points, T frames last).
 * Returns history [windows, P, tIn] and targets [windows, P, tOut] as float64.
 */
export function cutWindows(traj: ArrayLike<number>, n: number, P: number, T: number, starts: number[], tIn: number, tOut: number): { x: Float64Array; y: Float64Array; count: number } {
  const count = n * starts.length;
  const x = new Float64Array(count * P * tIn), y = new Float64Array(count * P * tOut);
  let w = 0;
  for (let i = 0; i < n; i++) for (const t0 of starts) {
    for (let p = 0; p < P; p++) {
      const src = (i * P + p) * T + t0;
      const xb = (w * P + p) * tIn, yb = (w * P + p) * tOut;
      for (let t = 0; t < tIn; t++) x[xb + t] = traj[src + t];
      for (let t = 0; t < tOut; t++) y[yb + t] = traj[src + tIn + t];
    }
    w++;
  }
  return { x, y, count };
}
