// Trials are runs: before a sweep starts, each trial's run configuration passes the checks a run
// of `lino train` passes before it loads anything (main/train/runner.ts: checkRunConfig, the schema
// and the backend; refuseBeforeStart, memory from the configuration). A grid's configurations are
// each checked (those its budget lets run); random and TPE draw from continuous domains, so each
// axis is checked at the ends of its range and at every value of its list. The message names the
// sweep file, the configuration (or axis) and the run configuration's field.
import { checkRunConfig, refuseBeforeStart } from '../train/runner';
import { errorMessage } from '../util/error-message';
import { applyParams, probeValues, setPath, type SweepConfig } from './sweep-config';
import { gridPoint, gridSize } from './space';

/** Configurations checked between two yields to the event loop (~10 ms of checks). */
const YIELD_EVERY = 128;

/** The grid configurations a sweep can run: all of them, or those its trial budget allows. */
function gridConfigurations(sweep: SweepConfig): number {
  const all = gridSize(sweep.axes);
  return sweep.budget.maxTrials === undefined ? all : Math.min(all, Math.floor(sweep.budget.maxTrials / sweep.seeds));
}

function check(cfg: Record<string, unknown>, where: string, backend: string | null): void {
  let parsed;
  try {
    parsed = checkRunConfig(cfg, where);
  } catch (e) {
    throw new Error(`${errorMessage(e)} (each trial is a run: it passes lino train's checks)`);
  }
  // a torch trial's memory is PyTorch's on the user's device, not the engine's estimate
  const pre = backend === null || parsed.backend === 'torch' ? null : refuseBeforeStart(parsed, parsed.backend ?? backend);
  if (pre) throw new Error(`${where}: field '${pre.field ?? 'model'}': ${pre.message}`);
}

/**
 * Throws unless every trial's configuration would be accepted by `lino train`. `backend`: the one
 * trials train on unless their configuration names one (memory limits); null checks no memory (an
 * export, trained elsewhere).
 */
export async function checkTrialConfigs(sweep: SweepConfig, source: string, backend: string | null): Promise<void> {
  if (sweep.method === 'grid') {
    const n = gridConfigurations(sweep);
    for (let k = 0; k < n; k++) {
      // a grid of 1e5 configurations takes seconds: the engine thread answers other calls between slices
      if (k > 0 && k % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      const params = gridPoint(sweep.axes, k);
      check(applyParams(sweep.base, params), `${source}: configuration c${k} ${JSON.stringify(params).slice(0, 200)}`, backend);
    }
    return;
  }
  sweep.axes.forEach((a, i) => {
    for (const v of probeValues(a)) check(setPath(sweep.base, a.path, v), `${source}: axes[${i}] ('${a.path}') value ${JSON.stringify(v).slice(0, 80)}`, backend);
  });
}
