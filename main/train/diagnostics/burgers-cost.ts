// Accuracy against cost for Burgers (docs/diagnostics.md): the generator's pseudo-spectral solver
// (burgers.ts) at several power-of-two grids, each timed and compared with the finest solve at t = T,
// and trained Burgers runs' inference at batch 1 and batched against the same finest solve. Initial
// data are drawn on the finest grid (the generator's GRF with K / 2 modes, the generator's sample
// streams) and strided to the coarser ones, as the generator makes its stored grid.
import { burgersSolve } from '../../data/generate/burgers';
import { grf1Coefficients, grf1Sample } from '../../data/generate/grf';
import { sampleRng } from '../../data/generate/rng';
import { PRESETS, type BurgersParams } from '../../data/generate/presets';
import { relL2Of } from '../playground-predict';
import type { PlaygroundRun } from '../playground-run';
import { COST_RELL2, checkCancelled, checkPow2, machineOf, modelRows, resolutionsOf, solverRow, stridePeriodic, type CostOptions, type CostReport, type CostRow } from './cost-timing';

/** Without grids given: half, once, twice and four times the first run's grid (16..8192); without a run 128 .. 1024. */
export function burgersLadder(s: number | undefined): number[] {
  if (s === undefined) return [128, 256, 512, 1024];
  return [s / 2, s, 2 * s, 4 * s].filter((r) => Number.isInteger(r) && r >= 16 && r <= 8192);
}

export async function burgersCost(o: CostOptions): Promise<CostReport> {
  const p = { ...PRESETS.burgers.quick } as BurgersParams;
  const seed = o.seed ?? 1;
  const res = resolutionsOf(o, burgersLadder);
  for (const s of res) checkPow2('burgers', s, 16, 8192);
  const K = res[res.length - 1]!;
  for (const run of o.runs ?? []) checkBurgersRun(run, K);
  const u0 = Array.from({ length: o.samples }, (_, i) => {
    const { alpha, beta } = grf1Coefficients(sampleRng(seed, 'burgers', i), K / 2, p.gamma, p.tau, p.sigma);
    return grf1Sample(alpha, beta, K);
  });
  o.onProgress?.(`solving ${o.samples} samples on ${K} points (the reference)`);
  const fine = u0.map((u) => burgersSolve(u, p.nu, p.T, p.cfl).uT);
  const rows: CostRow[] = [];
  for (const s of res) {
    checkCancelled(o);
    o.onProgress?.(`timing the solver on ${s} points`);
    const inputs = u0.map((u) => stridePeriodic(u, K, s, 1));
    rows.push(solverRow(s, o.samples, () => burgersSolve(inputs[0]!, p.nu, p.T, p.cfl), (i) => burgersSolve(inputs[i]!, p.nu, p.T, p.cfl).uT,
      (i, u) => (s === K ? null : relL2Of([u], [stridePeriodic(fine[i]!, K, s, 1)]))));
  }
  for (const run of o.runs ?? []) {
    checkCancelled(o);
    const s = run.grid[0]!;
    rows.push(...await modelRows(run, u0.map((u) => [stridePeriodic(u, K, s, 1)]), fine.map((u) => [stridePeriodic(u, K, s, 1)]), o));
  }
  return {
    benchmark: 'burgers', samples: o.samples, seed, finest: K,
    solver: `the generator's pseudo-spectral IF-RK4 solver (2/3 dealiasing, CFL ${p.cfl}), nu ${p.nu}, T ${p.T}, GRF initial data (gamma ${p.gamma}, tau ${p.tau}, sigma ${p.sigma})`,
    relL2Definition: COST_RELL2.operator,
    machine: machineOf(), rows,
  };
}

function checkBurgersRun(run: PlaygroundRun, K: number): void {
  if (run.benchmark !== 'burgers') throw new Error(`cost: run ${run.runId} was trained on '${run.benchmark}' data, the benchmark is burgers`);
  if (run.grid.length !== 1 || run.inChannels !== 1 || run.outChannels !== 1) {
    throw new Error(`cost: run ${run.runId}'s model takes a ${run.grid.join('x')} grid with ${run.inChannels} input channel(s), expected one Burgers initial condition on a 1-D grid`);
  }
  if (run.grid[0]! > K || K % run.grid[0]! !== 0) throw new Error(`cost: run ${run.runId}'s grid ${run.grid[0]} does not divide ${K} (the finest solve's grid)`);
}
