// The sweep's tables (trials, configurations, importance) go through the one table format of every
// export: LaTeX keeps enough digits to tell rows apart (5.91e-3 and 5.94e-3 never both 0.0059) and
// never fewer than 3, a positive correlation keeps its "+", the caption names the relL2 convention,
// and the text the Sweeps view and `lino sweep` show is the LaTeX's, cell for cell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSweep } from '../../../main/sweep/sweep-analysis';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import type { SweepState } from '../../../main/sweep/sweep-state';
import { sweepConfigTable, sweepImportanceTable, sweepTrialTable } from '../../../main/api/sweep-tables';
import { cellTexts, toCsv, toLatex } from '../../../main/api/table';

const sweep = parseSweepConfig({
  name: 's', method: 'grid', seeds: 1,
  base: { data: { kind: 'synthetic', grid: [8], train: 2, val: 1 }, epochs: 4 },
  axes: [{ path: 'optimizer.lr', values: [0.001, 0.002, 0.004] }],
}, 'sweep.json');
const bests = [5.91e-3, 5.94e-3, 0.0123];
const state: SweepState = {
  version: 1, id: 's1', name: 's', createdAt: '2026-01-01T00:00:00Z', status: 'done', wallSeconds: 3,
  configs: [0.001, 0.002, 0.004].map((lr, index) => ({ index, params: { 'optimizer.lr': lr } })),
  trials: bests.map((best, i) => ({ runId: `r${i}`, config: i, seedIndex: 0, seed: 7, state: 'done' as const, rungs: [], rungHistory: [], best, epochs: 4, wallSeconds: 1 })),
};
const axes = ['optimizer.lr'];
const bodyRows = (tex: string) => tex.split('\n').filter((l) => l.endsWith('\\\\')).slice(1);

test('the sweep\'s configuration table in LaTeX tells 5.91e-3 from 5.94e-3 with at least 3 significant digits and names its convention', () => {
  const t = sweepConfigTable(axes, state, analyzeSweep(sweep, state));
  const tex = toLatex(t.columns, t.rows, { caption: 'sweep s1 configurations' });
  const metric = bodyRows(tex).map((r) => r.split(' & ')[2]!);
  assert.equal(new Set(metric).size, 3, `rows print alike: ${metric.join(', ')}`);
  for (const m of metric) assert.ok(m.replace(/^[0.]+/, '').replace('.', '').length >= 3, `fewer than 3 significant digits: ${m}`);
  assert.match(tex, /\\caption\{[^}]*normalized: on the normalized fields/);
  assert.match(t.columns.map((c) => c.label).join('|'), /val relL2 \(normalized\)/);
  // the screen and the terminal print what the LaTeX prints
  assert.deepEqual(cellTexts(t.columns, t.rows).map((r) => r[2]), metric);
  // CSV is data: every digit
  assert.match(toCsv(t.columns, t.rows), /0\.00591,/);
});

test('the trial table names the convention, and with the decoded values beside it names both', () => {
  const n = sweepTrialTable(axes, state);
  assert.deepEqual(n.rows.map((r) => r.n), bests);
  assert.ok(!n.columns.some((c) => /decoded/.test(c.label)));
  const d = sweepTrialTable(axes, state, (id) => (id === 'r0' ? 0.0311 : null));
  assert.equal(d.rows[0]!.d, 0.0311);
  assert.equal(d.rows[1]!.d, null);
  assert.match(toLatex(d.columns, d.rows), /normalized: .*decoded: on the decoded fields/);
});

test('the importance table keeps the sign of a correlation, "+" included', () => {
  const a = { ...analyzeSweep(sweep, state), importance: [{ path: 'optimizer.lr', importance: 0.7, correlation: 0.952 }, { path: 'model.width', importance: 0.3, correlation: -0.41 }] };
  const t = sweepImportanceTable(a);
  const tex = toLatex(t.columns, t.rows);
  const corr = bodyRows(tex).map((r) => r.split(' & ')[2]!.replace(' \\\\', ''));
  assert.deepEqual(corr, ['+0.952', '-0.410']);
  assert.deepEqual(cellTexts(t.columns, t.rows).map((r) => r[2]), ['+0.952', '-0.410']);
});
