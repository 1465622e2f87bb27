// Accuracy against cost for Darcy (docs/diagnostics.md): the built-in solver at several resolutions,
// each timed and compared with the finest solve, and trained Darcy runs' inference at batch 1 and
// batched, compared with the same finest solve. Every coefficient is drawn on the finest grid and
// strided to the coarser ones, as the generator makes its lower resolutions.
import { darcyCoefficient, solveGwf, strideOf } from '../../data/generate/darcy';
import { PRESETS, type DarcyParams } from '../../data/generate/presets';
import { relL2Of } from '../playground-predict';
import type { PlaygroundRun } from '../playground-run';
import { COST_RELL2, checkCancelled, machineOf, modelRows, resolutionsOf, solverRow, type CostOptions, type CostReport, type CostRow } from './cost-timing';

const stride2 = (a: ArrayLike<number>, K: number, s: number): Float64Array => {
  const r = strideOf(K, s);
  const out = new Float64Array(s * s);
  for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) out[i * s + j] = a[i * r * K + j * r]!;
  return out;
};

/**
 * The solver grids when none are given: around the first run's grid s, the grid of half its
 * spacing's stride ((s - 1) / 2 + 1, when whole and >= 8), s itself and twice as fine (2 (s - 1) + 1,
 * up to 421) so that every one strides the finest; without a run 29, 57, 113.
 */
export function ladder(s: number | undefined): number[] {
  if (s === undefined) return [29, 57, 113];
  const out = [s];
  if ((s - 1) % 2 === 0 && (s - 1) / 2 + 1 >= 8) out.unshift((s - 1) / 2 + 1);
  if (2 * (s - 1) + 1 <= 421) out.push(2 * (s - 1) + 1);
  return out;
}

export async function darcyCost(o: CostOptions): Promise<CostReport> {
  const p: DarcyParams = { ...PRESETS.darcy.quick } as DarcyParams;
  const seed = o.seed ?? 1;
  const res = resolutionsOf(o, ladder);
  const K = res[res.length - 1]!;
  for (const s of res) {
    if (s < 8 || s > 421) throw new Error(`cost: resolution ${s} for darcy: expected 8..421`);
    strideOf(K, s); // refuses a grid that does not stride the finest one, naming both
  }
  for (const run of o.runs ?? []) checkDarcyRun(run, K);
  const coef = Array.from({ length: o.samples }, (_, i) => darcyCoefficient(seed, i, K, p));
  const rows: CostRow[] = [];
  o.onProgress?.(`solving ${o.samples} samples at ${K}x${K} (the reference)`);
  const fine = coef.map((a) => solveGwf(a, K, { tol: p.tol }).cells);
  for (const s of res) {
    checkCancelled(o);
    o.onProgress?.(`timing the solver at ${s}x${s}`);
    const inputs = coef.map((a) => stride2(a, K, s));
    rows.push(solverRow(s, o.samples, () => solveGwf(inputs[0]!, s, { tol: p.tol }), (i) => solveGwf(inputs[i]!, s, { tol: p.tol }).cells,
      (i, u) => (s === K ? null : relL2Of([u], [stride2(fine[i]!, K, s)]))));
  }
  for (const run of o.runs ?? []) {
    checkCancelled(o);
    const s = run.grid[0]!;
    rows.push(...await modelRows(run, coef.map((a) => [stride2(a, K, s)]), fine.map((u) => [stride2(u, K, s)]), o));
  }
  return {
    benchmark: 'darcy', samples: o.samples, seed, finest: K, tol: p.tol,
    solver: `the generator's solve_gwf (MINRES with a multigrid preconditioner, relative residual tol ${p.tol}), quick preset coefficients`,
    relL2Definition: COST_RELL2.operator,
    machine: machineOf(), rows,
  };
}

function checkDarcyRun(run: PlaygroundRun, K: number): void {
  if (run.benchmark !== 'darcy') throw new Error(`cost: run ${run.runId} was trained on '${run.benchmark}' data, the benchmark is darcy`);
  if (run.grid.length !== 2 || run.grid[0] !== run.grid[1] || run.inChannels !== 1 || run.outChannels !== 1) {
    throw new Error(`cost: run ${run.runId}'s model takes a ${run.grid.join('x')} grid with ${run.inChannels} input channel(s), expected one Darcy coefficient on a square grid`);
  }
  strideOf(K, run.grid[0]!); // its grid must stride the finest solve's
}
