// A sweep's offline report: its sweep.json (the base run configuration with defaults filled in),
// the best-so-far curve, each trial's curve, the trial and configuration tables in both relL2
// conventions (the decoded value read from each trial's run at its best epoch) and the importance.
import { analyzeSweep } from '../sweep/sweep-analysis';
import { readSweepConfig, readSweepState } from '../sweep/sweep-state';
import { TrainConfig } from '../train/config';
import { RunStore } from '../runs/run-store';
import { sweepConfigTable, sweepImportanceTable, sweepTrialTable } from '../api/sweep-tables';
import { figuresHtml, jsonHtml, tableHtml, type Report } from './report-page';
import { runCurves } from './run-report';
import { lineChartSvg } from './svg-chart';

const show = (v: unknown) => (Array.isArray(v) ? v.join('+') : typeof v === 'number' ? v : String(v));

/** The sweep `id` of the workspace as a report. */
export function sweepReport(workspace: string, id: string): Report {
  const sweep = readSweepConfig(workspace, id);
  const state = readSweepState(workspace, id);
  const a = analyzeSweep(sweep, state);
  const store = new RunStore(`${workspace}/runs`);
  const curves = new Map<string, ReturnType<typeof runCurves>['epochs']>();
  for (const t of state.trials) {
    try {
      curves.set(t.runId, runCurves(store.open(t.runId)).epochs);
    } catch {
      curves.set(t.runId, []); // a trial whose run was deleted keeps its row from state.json
    }
  }
  const bestEpoch = (runId: string) => curves.get(runId)!.reduce<(typeof curves extends Map<string, infer E> ? E : never)[number] | null>((b, e) => (b === null || e.val.relL2 < b.val.relL2 ? e : b), null);
  const axes = sweep.axes.map((x) => x.path);
  const decoded = (runId: string) => bestEpoch(runId)?.val.relL2Decoded ?? null;
  const trials = sweepTrialTable(axes, state, decoded);
  const configs = sweepConfigTable(axes, state, a, decoded);
  const importance = sweepImportanceTable(a);
  const base = TrainConfig.safeParse(sweep.base);
  return {
    kind: 'sweep',
    title: `Sweep ${sweep.name}`,
    facts: [
      ['sweep id', id], ['status', state.status + (state.reason ? ` (${state.reason})` : '')], ['created', state.createdAt], ['method', sweep.method],
      ['trials', `${state.trials.filter((t) => t.state === 'done' || t.state === 'pruned').length} ended of ${state.trials.length} created`],
      ['seeds per configuration', String(sweep.seeds)], ['wall time', `${state.wallSeconds.toFixed(1)} s`],
      ['best configuration', a.best ? `${a.best.config}: ${sweep.axes.map((x) => `${x.path} = ${show(a.best!.params[x.path])}`).join(', ')}` : '—'],
    ],
    sections: [
      {
        heading: 'Curves',
        html: figuresHtml([
          lineChartSvg({ title: 'best val relL2 so far (normalized)', xLabel: 'trial', yLabel: 'val relL2', logY: true, dots: true, series: [{ name: 'best so far', points: a.bestSoFar.map((p) => [p.trial, p.best]) }, { name: 'trial', points: a.bestSoFar.map((p) => [p.trial, p.value]), dashed: true }] }),
          lineChartSvg({ title: 'val relL2 per epoch, each trial (normalized)', xLabel: 'epoch', yLabel: 'val relL2', logY: true, dots: true, series: state.trials.map((t, i) => ({ name: `trial ${i + 1}`, points: curves.get(t.runId)!.map((e) => [e.epoch, e.val.relL2] as [number, number]) })) }),
        ]),
      },
      { heading: 'Configurations: both relL2 conventions', html: tableHtml(configs.columns, configs.rows) },
      { heading: 'Trials', html: tableHtml(trials.columns, trials.rows) },
      { heading: 'Parameter importance', html: tableHtml(importance.columns, importance.rows) },
      { heading: 'Sweep configuration (the base run with defaults filled in)', html: jsonHtml({ ...sweep, base: base.success ? base.data : sweep.base }) },
    ],
  };
}
