// Does a prediction obey its PDE? One check per benchmark, each computed for the prediction and for
// the truth (what "consistent" looks like on these data), docs/diagnostics.md gives the formulas:
//   Darcy : the residual of -div(a grad u) = 1 in the generator's own discretization (solve_gwf:
//           spline of a onto the nodes, 5-point stencil with face means), u put back onto the nodes
//           by inverting the solver's node -> cell spline;
//   Burgers : the drift of the integral of u (the periodic viscous equation conserves it);
//   Navier-Stokes : the drift of the mean vorticity along the rollout (conserved on the periodic
//           square: the forcing has zero mean).
import { darcyCellsToNodes, darcyForcing, darcyNodalCoefficient, darcyResidualMap } from '../../data/generate/darcy';
import { darcyStencil } from '../../data/generate/multigrid';
import type { z } from 'zod';
import type { PhysicsReport as PhysicsReportSchema } from './schema';
import { VorticityResidualOp } from './vorticity-residual';

export interface DarcyResidual {
  /** f - A u on the nodes (K x K, zero on the boundary ring). */
  map: Float64Array;
  /** ||f - A u|| / ||f|| over the interior nodes. */
  relative: number;
  /** RMS of the nodal u on the boundary ring over the RMS of u (the condition u = 0 there). */
  boundary: number;
}

/** The Darcy residual of a cell-centred solution `u` for the cell-centred coefficient `a` on a K x K grid. */
export function darcyResidual(a: ArrayLike<number>, u: ArrayLike<number>, K: number, clamp = false): DarcyResidual {
  if (a.length !== K * K || u.length !== K * K) throw new Error(`darcy residual: a has ${a.length} and u ${u.length} values, expected ${K} x ${K} = ${K * K}`);
  if (K < 4) throw new Error(`darcy residual: grid ${K} x ${K} is below the spline's 4 points`);
  const { nodalCoef } = darcyNodalCoefficient(Float64Array.from(a), K, clamp);
  const nodal = darcyCellsToNodes(u, K);
  let bb = 0, nb = 0, uu = 0;
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) {
    const v = nodal[i * K + j]!;
    uu += v * v;
    if (i === 0 || j === 0 || i === K - 1 || j === K - 1) { bb += v * v; nb++; nodal[i * K + j] = 0; }
  }
  const { map, relative } = darcyResidualMap(darcyStencil(nodalCoef, K), nodal, darcyForcing(K), K);
  return { map, relative, boundary: uu > 0 ? Math.sqrt(bb / nb) / Math.sqrt(uu / (K * K)) : 0 };
}

const mean = (v: ArrayLike<number>, off = 0, n = v.length, stride = 1) => { let s = 0; for (let i = 0; i < n; i++) s += v[off + i * stride]!; return s / n; };
const rms = (v: ArrayLike<number>, off = 0, n = v.length, stride = 1) => { let s = 0; for (let i = 0; i < n; i++) s += v[off + i * stride]! ** 2; return Math.sqrt(s / n); };

/**
 * Conservation drift of a periodic field: (mean(u_end) - mean(u_start)) / rms(u_start); the mean
 * on a uniform periodic grid is the integral over the unit domain (Burgers: the integral of u;
 * Navier-Stokes: the mean vorticity).
 */
export function meanDrift(start: ArrayLike<number>, end: ArrayLike<number>): number {
  const r = rms(start);
  return r > 0 ? (mean(end) - mean(start)) / r : mean(end) - mean(start);
}

type Field = { data: ArrayLike<number>; shape: readonly number[] };

export type PhysicsReport = z.infer<typeof PhysicsReportSchema>;
type PhysicsValue = PhysicsReport['mean'];

/** Mean of each side over rows; the truth's is null where any row has none (no truth given). */
const avg = (rows: readonly PhysicsValue[]): PhysicsValue => ({
  prediction: mean(rows.map((r) => r.prediction)),
  truth: rows.some((r) => r.truth === null) ? null : mean(rows.map((r) => r.truth!)),
});
const absOf = (r: PhysicsValue): PhysicsValue => ({ prediction: Math.abs(r.prediction), truth: r.truth === null ? null : Math.abs(r.truth) });

/**
 * The physics check of a split: `input` [n, ...grid, Cx] (physical channels only, decoded), `pred`
 * and `truth` [n, ...grid, C] decoded. Answers null for a benchmark without one (airfoil, custom data).
 * Without a truth (a Playground input not solved yet) the prediction's side alone, the truth's null:
 * none of the checks needs the truth, it only shows what "consistent" looks like.
 */
export function physicsReport(benchmark: string | undefined, input: Field, pred: Field, truth: Field | null, o: { indices?: readonly number[]; clamp?: boolean; generator?: Record<string, unknown> } = {}): PhysicsReport | null {
  const n = pred.shape[0]!, grid = pred.shape.slice(1, -1), C = pred.shape[pred.shape.length - 1]!;
  const P = grid.reduce((a, b) => a * b, 1), Cx = input.shape[input.shape.length - 1]!;
  const idx = (s: number) => o.indices?.[s] ?? s;
  if (benchmark === 'darcy' && grid.length === 2 && grid[0] === grid[1] && C === 1) {
    const K = grid[0]!;
    let map: PhysicsReport['map'];
    const perSample = Array.from({ length: n }, (_, s) => {
      const a = Array.from({ length: P }, (_, p) => input.data[(s * P + p) * Cx]!);
      const sl = (f: Field) => Array.from({ length: P }, (_, p) => f.data[s * P + p]!);
      const rp = darcyResidual(a, sl(pred), K, o.clamp), rt = truth ? darcyResidual(a, sl(truth), K, o.clamp) : null;
      if (s === 0) map = { grid: [K, K], prediction: [...rp.map], truth: rt ? [...rt.map] : null };
      return { index: idx(s), prediction: rp.relative, truth: rt ? rt.relative : null };
    });
    return { benchmark: 'darcy', quantity: '||f + div(a grad u)|| / ||f|| in the generator\'s discretization (interior nodes)', mean: avg(perSample), perSample, ...(map ? { map } : {}) };
  }
  if (benchmark === 'burgers' && grid.length === 1 && C === 1) {
    const perSample = Array.from({ length: n }, (_, s) => {
      const u0 = Array.from({ length: P }, (_, p) => input.data[(s * P + p) * Cx]!);
      const at = (f: Field) => Array.from({ length: P }, (_, p) => f.data[s * P + p]!);
      return { index: idx(s), prediction: meanDrift(u0, at(pred)), truth: truth ? meanDrift(u0, at(truth)) : null };
    });
    return { benchmark: 'burgers', quantity: '(integral of u(T) - integral of u(0)) / rms(u(0)), conserved: 0', mean: avg(perSample.map(absOf)), perSample };
  }
  if (benchmark === 'navier-stokes' && grid.length === 2) {
    // drift of each step from the last history frame (input channel Cx - 1)
    const steps = Array.from({ length: C }, (_, t) => Array.from({ length: n }, (_, s) => {
      const w0 = Array.from({ length: P }, (_, p) => input.data[(s * P + p) * Cx + Cx - 1]!);
      const at = (f: Field) => Array.from({ length: P }, (_, p) => f.data[(s * P + p) * C + t]!);
      return { prediction: meanDrift(w0, at(pred)), truth: truth ? meanDrift(w0, at(truth)) : null };
    }));
    const absAvg = (rows: PhysicsValue[]) => avg(rows.map(absOf));
    const perSample = Array.from({ length: n }, (_, s) => ({ index: idx(s), ...steps[C - 1]![s]! }));
    const equation = nsEquation(input, pred, truth, o.generator);
    return { benchmark: 'navier-stokes', quantity: '(mean vorticity at the step - at the last history frame) / rms of that frame, conserved: 0', mean: absAvg(steps.flat()), perStep: steps.map(absAvg), perSample, ...(equation ? { equation } : {}) };
  }
  return null;
}

/**
 * The vorticity-equation residual of each consecutive pair of frames (the last history frame, then the
 * rollout's), for the prediction and the truth; null without the generator's nu and forcing (data
 * not made by the generator) or on a grid that is not a power of two. Frames are one time unit apart (nsSample).
 */
function nsEquation(input: Field, pred: Field, truth: Field | null, gen: Record<string, unknown> | undefined): PhysicsReport['equation'] | null {
  const nu = gen?.nu, forcing = gen?.forcing;
  const grid = pred.shape.slice(1, -1), s = grid[0]!;
  if (typeof nu !== 'number' || typeof forcing !== 'number' || grid[1] !== s || s < 4 || (s & (s - 1)) !== 0) return null;
  const n = pred.shape[0]!, C = pred.shape[pred.shape.length - 1]!, Cx = input.shape[input.shape.length - 1]!, P = s * s;
  const op = new VorticityResidualOp(s, nu, forcing, 1);
  const frame = (f: Field, ch: number, CC: number, sm: number) => Float64Array.from({ length: P }, (_, p) => f.data[(sm * P + p) * CC + ch]!);
  let map: NonNullable<PhysicsReport['equation']>['map'] | undefined;
  const perStep = Array.from({ length: C }, (_, t) => {
    let pr = 0, tr = 0;
    for (let sm = 0; sm < n; sm++) {
      const from = (f: Field) => (t === 0 ? frame(input, Cx - 1, Cx, sm) : frame(f, t - 1, C, sm));
      const rp = op.apply(from(pred), frame(pred, t, C, sm)), rt = truth ? op.apply(from(truth), frame(truth, t, C, sm)) : null;
      if (t === 0 && sm === 0) map = { grid: [s, s], prediction: [...rp.map], truth: rt ? [...rt.map] : null };
      pr += rp.relative / n; tr += (rt?.relative ?? 0) / n;
    }
    return { prediction: pr, truth: truth ? tr : null };
  });
  return {
    quantity: '||(w1 - w0)/dt - (f - u.grad w + nu Lap w)|| / ||f - u.grad w + nu Lap w|| at the midpoint of consecutive frames (dt = 1), spectral as the generator',
    mean: avg(perStep), perStep, map: map!,
  };
}
