import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CURVE_COLUMNS, curveRows, STEP_METRICS } from '../../../renderer/src/logic/curves-csv';
import { toCsv } from '../../../renderer/src/export/table';
import type { EpochMetrics, StepMetrics } from '../../../main/api/contract';

const step = (epoch: number, s: number): StepMetrics => ({ type: 'step', epoch, step: s, loss: 0.1 * s, relL2: 0.3 / s, lr: 1e-3, gradNorm: 2 / s, stepMs: 250 });
const epoch = (e: number, withTest: boolean): EpochMetrics => ({
  type: 'epoch', epoch: e, lr: 1e-3, train: { loss: 0.5, relL2: 0.4 }, val: { mse: 0.01, relL2: 0.2 / e, relL2Decoded: 0.21 / e },
  ...(withTest ? { test: { mse: 0.02, relL2: 0.3, relL2Decoded: 0.31 } } : {}),
  blocks: [], best: true, bestEpoch: e, bestValRelL2: 0.2 / e, samplesPerSec: 12.5, epochSeconds: 1, etaSeconds: 0, peakRssBytes: 1 << 20, tfBytes: 4096, backend: 'cpu',
});

test('curve CSV: one long-format row per run, record and metric, values exact', () => {
  const rows = curveRows([
    { id: 'r1', name: 'first, "quoted"', curves: { steps: [step(1, 1), step(1, 2)], epochs: [epoch(1, false)] } },
    { id: 'r2', name: 'second', curves: { steps: [step(1, 1)], epochs: [epoch(1, true)] } },
  ]);
  const r1Steps = rows.filter((r) => r.run === 'r1' && r.record === 'step');
  assert.equal(r1Steps.length, 2 * STEP_METRICS.length);
  assert.deepEqual(r1Steps.filter((r) => r.metric === 'gradNorm').map((r) => [r.step, r.epoch, r.wall, r.value]), [[1, 1, 0.25, 2], [2, 1, 0.5, 1]]);
  // Epoch rows: last step of the epoch, training seconds at its end; the test split only where recorded.
  const r1Val = rows.find((r) => r.run === 'r1' && r.metric === 'val.relL2')!;
  assert.deepEqual([r1Val.record, r1Val.step, r1Val.epoch, r1Val.wall, r1Val.value], ['epoch', 2, 1, 1, 0.2]);
  assert.equal(rows.some((r) => r.run === 'r1' && r.metric === 'test.relL2'), false);
  assert.equal(rows.find((r) => r.run === 'r2' && r.metric === 'test.relL2')!.value, 0.3);

  const csv = toCsv(CURVE_COLUMNS, rows).trimEnd().split('\r\n');
  assert.equal(csv[0], 'run,name,record,step,epoch,wall_seconds,metric,value');
  assert.equal(csv.length, rows.length + 1);
  assert.equal(csv[1], 'r1,"first, ""quoted""",step,1,1,0.25,loss,0.1');
  // Full precision: 0.3 / 2 survives the round trip.
  const relL2 = csv.find((l) => l.startsWith('r1,') && l.includes(',step,2,') && l.includes(',relL2,'))!;
  assert.equal(Number(relL2.split(',').pop()), 0.3 / 2);
});

test('curve CSV: a run with no records gives no rows', () => {
  assert.deepEqual(curveRows([{ id: 'x', name: 'x', curves: { steps: [], epochs: [] } }]), []);
});
