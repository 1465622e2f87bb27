// Run folders as the trainer leaves them (config.json, status.json, metrics.jsonl, a 'last'
// checkpoint with its best epoch), written without training: the Runs view at the scale of
// hundreds. Weights are empty: nothing here loads a model; what reads runs (list,
// summary, groups, details) reads these as it reads trained ones.
import { join } from 'node:path';
import { appendFileSync } from 'node:fs';
import { RunStore } from '../../main/runs/run-store';
import { saveCheckpoint } from '../../main/runs/checkpoint';

export interface FixtureRun { id: string; benchmark: string; kind: string; group: string | null; best: number }

const BENCHMARKS = ['darcy', 'burgers', 'navier-stokes'] as const;

/** The ith fixture run's best validation relL2: distinct, reproducible. */
const bestOf = (i: number) => 0.01 + ((i * 7919) % 1000) / 1e5;

/**
 * Runs `from`..`n - 1` in `workspace`/runs (more added to a workspace that holds the first `from`): benchmarks and kinds in turn; runs 0..2 of every 12 a three-seed
 * group named as train.start names one ('w8-' and a time stamp), run 3 a one-seed group, runs 4..5
 * an ablation's variants (groups '<base run id>/<variant>'), runs 6..7 a sweep's configuration
 * ('<sweep id>-c<k>'); the rest ungrouped.
 */
export function writeRunFixtures(workspace: string, n: number, from = 0): FixtureRun[] {
  const store = new RunStore(join(workspace, 'runs'));
  const out: FixtureRun[] = [];
  // an ablation's variants name their base, run 2 of their block of 12
  let base = `fx-${String(Math.floor(from / 12) * 12 + 2).padStart(4, '0')}`;
  for (let i = from; i < n; i++) {
    const block = Math.floor(i / 12), j = i % 12;
    // a seed group's runs (and a sweep configuration's) share everything but the seed
    const k = j < 3 ? block * 12 : j === 6 || j === 7 ? block * 12 + 6 : i;
    const benchmark = BENCHMARKS[k % 3]!;
    const kind = k % 4 === 3 ? 'fno' : 'lino';
    const id = `fx-${String(i).padStart(4, '0')}`;
    const seed = 42 + (j < 3 ? j : j === 7 ? 1 : 0);
    const width = 8 + 4 * (k % 5);
    const group = j < 3 ? `w${width}-mx0d1t${String(block).padStart(2, '0')}` : j === 3 ? `single-mx0d2t${String(block).padStart(2, '0')}` : j < 6 ? `${base}/${j === 4 ? 'full' : 'no-scattering'}` : j < 8 ? `grid-demo-0a1b2c3d-c${block}` : null;
    const name = j < 3 ? `w${width} (seed ${seed})` : j === 3 ? 'single (seed 42)' : j < 6 ? `${benchmark}-base/${j === 4 ? 'full' : 'no-scattering'} (seed 42)` : j < 8 ? `grid-demo c${block} (seed ${seed})` : `run ${i} ${benchmark}`;
    const model = kind === 'fno' ? { kind, width, depth: 2, modes: 4 } : { kind, width, depth: 2 };
    const h = store.create({ name, data: { kind: 'generate', benchmark, preset: 'tiny' }, model, batchSize: 4, epochs: 2, seed, ...(group ? { group } : {}), ...(k % 5 === 0 ? {} : { optimizer: { lr: 0.001 * (1 + (k % 3)) } }) }, id);
    if (j === 2) base = id;
    const best = bestOf(i);
    for (let e = 1; e <= 2; e++) {
      const val = { mse: best, relL2: e === 2 ? best : best * 1.5, relL2Decoded: (e === 2 ? best : best * 1.5) * 1.1 };
      appendFileSync(h.metricsPath, JSON.stringify({ type: 'epoch', epoch: e, lr: 0.001, train: { loss: best, relL2: best }, val, test: val, blocks: [], best: true, bestEpoch: e, bestValRelL2: val.relL2, samplesPerSec: 100, epochMs: 10 }) + '\n');
    }
    const empty = new Map();
    saveCheckpoint(h.dir, 'last', empty, { expAvg: empty, expAvgSq: empty }, {
      format: 'lino-checkpoint', version: 1, epoch: 2, globalStep: 4,
      optimizer: { name: 'adamw', step: 4, lr: 0.001, weightDecay: 0, beta1: 0.9, beta2: 0.999, eps: 1e-8 },
      scheduler: { name: 'steplr', lastEpoch: 2, lr: 0.001, stepSize: 100, gamma: 0.5 },
      rng: null, normalizer: null, best: { epoch: 2, valRelL2: best, testRelL2: best }, backend: 'cpu', savedAt: new Date().toISOString(), metricsRecords: 2,
    });
    h.writeStatus({ state: 'done', pid: null });
    out.push({ id, benchmark, kind, group, best });
  }
  return out;
}
