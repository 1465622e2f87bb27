// Accuracy against cost for Navier-Stokes (docs/diagnostics.md): the generator's pseudo-spectral
// vorticity solver (navier-stokes.ts) at several power-of-two grids, each continuing the finest
// solve's last history frame (t = T_in) for T_out frames, timed and compared frame by frame with the
// finest solve; trained runs roll out the same T_out frames from the finest solve's T_in history
// frames, at batch 1 and batched. Initial vorticity is drawn on the finest grid (the generator's GRF
// and sample streams), every field strided to the coarser grids as the generator strides its data.
import { fnoForcing, nsSolve } from '../../data/generate/navier-stokes';
import { nsGrf } from '../../data/generate/grf';
import { sampleRng } from '../../data/generate/rng';
import { PRESETS, type NavierStokesParams } from '../../data/generate/presets';
import { relL2Of } from '../playground-predict';
import type { PlaygroundRun } from '../playground-run';
import { COST_RELL2, checkCancelled, checkPow2, machineOf, modelRows, resolutionsOf, solverRow, stridePeriodic, type CostOptions, type CostReport, type CostRow } from './cost-timing';

/** Without grids given: half, once and twice the first run's grid (8..256); without a run 16, 32, 64. */
export function navierStokesLadder(s: number | undefined): number[] {
  if (s === undefined) return [16, 32, 64];
  return [s / 2, s, 2 * s].filter((r) => Number.isInteger(r) && r >= 8 && r <= 256);
}

export async function navierStokesCost(o: CostOptions): Promise<CostReport> {
  const p = { ...PRESETS['navier-stokes'].quick } as NavierStokesParams;
  const seed = o.seed ?? 1;
  const res = resolutionsOf(o, navierStokesLadder);
  for (const s of res) checkPow2('navier-stokes', s, 8, 256);
  const K = res[res.length - 1]!;
  const window = o.runs?.[0]?.autoregressive ?? { tIn: p.tIn, tOut: p.tOut };
  for (const run of o.runs ?? []) checkNsRun(run, K, window);
  const { tIn, tOut } = window;
  const solve = (w: Float64Array, s: number, frames: number) => nsSolve(w, s, { nu: p.nu, forcing: fnoForcing(s, p.forcing), frames, scheme: 'ab2', dt: null, cfl: p.cfl }).frames;
  o.onProgress?.(`solving ${o.samples} samples at ${K}x${K} to t = ${tIn + tOut} (the reference)`);
  const fine = Array.from({ length: o.samples }, (_, i) => {
    checkCancelled(o);
    return solve(nsGrf(sampleRng(seed, 'navier-stokes', i), K, p.alpha, p.tau), K, tIn + tOut);
  });
  const target = (i: number, s: number) => fine[i]!.slice(tIn, tIn + tOut).map((f) => stridePeriodic(f, K, s, 2));
  const rows: CostRow[] = [];
  for (const s of res) {
    checkCancelled(o);
    o.onProgress?.(`timing the solver at ${s}x${s} (${tOut} frames)`);
    const starts = fine.map((f) => stridePeriodic(f[tIn - 1]!, K, s, 2));
    rows.push(solverRow(s, o.samples, () => solve(starts[0]!, s, 1), (i) => solve(starts[i]!, s, tOut), (i, frames) => {
      if (s === K) return null;
      const ref = target(i, s);
      return frames.reduce((a, f, t) => a + relL2Of([f], [ref[t]!]) / tOut, 0);
    }));
  }
  for (const run of o.runs ?? []) {
    checkCancelled(o);
    const s = run.grid[0]!;
    const history = fine.map((f) => f.slice(0, tIn).map((w) => stridePeriodic(w, K, s, 2)));
    rows.push(...await modelRows(run, history, fine.map((_, i) => target(i, s)), o));
  }
  return {
    benchmark: 'navier-stokes', samples: o.samples, seed, finest: K, window: { tIn, tOut },
    solver: `the generator's pseudo-spectral vorticity solver (Crank-Nicolson / Adams-Bashforth 2, 2/3 dealiasing, adaptive step with CFL ${p.cfl}), nu ${p.nu}, forcing amplitude ${p.forcing}, GRF initial vorticity (alpha ${p.alpha}, tau ${p.tau}); from t = ${tIn} to t = ${tIn + tOut}`,
    relL2Definition: COST_RELL2.rollout,
    machine: machineOf(), rows,
  };
}

function checkNsRun(run: PlaygroundRun, K: number, window: { tIn: number; tOut: number }): void {
  if (run.benchmark !== 'navier-stokes') throw new Error(`cost: run ${run.runId} was trained on '${run.benchmark}' data, the benchmark is navier-stokes`);
  const ar = run.autoregressive;
  if (!ar || run.grid.length !== 2 || run.grid[0] !== run.grid[1]) {
    throw new Error(`cost: run ${run.runId}'s model takes a ${run.grid.join('x')} grid${ar ? '' : ' in one pass'}, expected a vorticity rollout on a square grid`);
  }
  if (ar.tIn !== window.tIn || ar.tOut !== window.tOut) throw new Error(`cost: run ${run.runId} rolls out ${ar.tOut} frames from ${ar.tIn}, the first run ${window.tOut} from ${window.tIn}: compare runs with one window`);
  if (run.grid[0]! > K || K % run.grid[0]! !== 0) throw new Error(`cost: run ${run.runId}'s grid ${run.grid[0]} does not divide ${K} (the finest solve's grid)`);
}
