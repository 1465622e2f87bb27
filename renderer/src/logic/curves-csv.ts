// All selected runs' curves as one long-format table (one row per run, record and metric), the
// layout pandas' read_csv + pivot and W&B's/TensorBoard's CSV downloads use. Pure: the Runs view
// hands the rows to the table CSV writer (renderer/src/export/table.ts).
import type { TableColumn, TableRow } from '../export/table';
import { epochX, stepX } from './curve-axes';
import type { RunCurves } from './run-metrics';

export const CURVE_COLUMNS: TableColumn[] = [
  { key: 'run', label: 'run' },
  { key: 'name', label: 'name' },
  { key: 'record', label: 'record' },
  { key: 'step', label: 'step', align: 'r' },
  { key: 'epoch', label: 'epoch', align: 'r' },
  { key: 'wall', label: 'wall_seconds', align: 'r' },
  { key: 'metric', label: 'metric' },
  { key: 'value', label: 'value', align: 'r' },
];

/** Step metrics in the table, in this order (metrics.jsonl field names). */
export const STEP_METRICS = ['loss', 'relL2', 'gradNorm', 'lr', 'stepMs'] as const;

/** Epoch metrics: name in the table -> how to read it from an epoch record. */
const EPOCH_METRICS: [string, (e: RunCurves['epochs'][number]) => number | undefined][] = [
  ['train.loss', (e) => e.train.loss],
  ['train.relL2', (e) => e.train.relL2],
  ['val.mse', (e) => e.val.mse],
  ['val.relL2', (e) => e.val.relL2],
  ['val.relL2Decoded', (e) => e.val.relL2Decoded],
  ['test.relL2', (e) => e.test?.relL2],
  ['test.relL2Decoded', (e) => e.test?.relL2Decoded],
  ['lr', (e) => e.lr],
  ['samplesPerSec', (e) => e.samplesPerSec],
  ['epochSeconds', (e) => e.epochSeconds],
  ['peakRssBytes', (e) => e.peakRssBytes],
  ['tfBytes', (e) => e.tfBytes],
];

export interface CurveRun {
  id: string;
  name: string;
  curves: RunCurves;
}

/**
 * Rows (run, name, record 'step'|'epoch', step, epoch, wall_seconds, metric, value): step records
 * carry their global step; epoch records the last step of that epoch (empty when its steps were
 * not recorded). wall_seconds is training time since the run started (./curve-axes.ts).
 * Metrics a record lacks (a run without a test split) are left out, not written as empty.
 */
export function curveRows(runs: CurveRun[]): TableRow[] {
  const rows: TableRow[] = [];
  for (const r of runs) {
    const { steps, epochs } = r.curves;
    const wall = stepX(steps, epochs, 'wall');
    steps.forEach((s, i) => {
      for (const m of STEP_METRICS) rows.push({ run: r.id, name: r.name, record: 'step', step: s.step, epoch: s.epoch, wall: wall[i], metric: m, value: s[m] });
    });
    const ewall = epochX(steps, epochs, 'wall');
    const estep = epochX(steps, epochs, 'step');
    epochs.forEach((e, i) => {
      for (const [m, read] of EPOCH_METRICS) {
        const v = read(e);
        if (typeof v === 'number') rows.push({ run: r.id, name: r.name, record: 'epoch', step: estep[i], epoch: e.epoch, wall: ewall[i], metric: m, value: v });
      }
    });
  }
  return rows;
}
