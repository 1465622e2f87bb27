// A sweep's offline report: its sweep.json (the base run configuration with defaults filled in),
// the best-so-far curve, each trial's curve, the trial and configuration tables in both relL2
// conventions (the decoded value read from each trial's run at its best epoch) and the importance.
import { analyzeSweep } from '../sweep/sweep-analysis';
import { readSweepConfig, readSweepState } from '../sweep/sweep-state';
import type { SweepParams } from '../sweep/sweep-config';
import { TrainConfig } from '../train/config';
import { RunStore } from '../runs/run-store';
import type { TableColumn, TableRow } from '../api/table';
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
  const axisCols: TableColumn[] = sweep.axes.map((x) => ({ key: `p:${x.path}`, label: x.path }));
  const trialCols: TableColumn[] = [
    { key: 'trial', label: 'trial', align: 'r' }, { key: 'run', label: 'run' }, { key: 'seed', label: 'seed', align: 'r' }, { key: 'state', label: 'status' },
    { key: 'epochs', label: 'epochs', align: 'r' }, { key: 'n', label: 'best val relL2 (normalized)', align: 'r' }, { key: 'd', label: 'val relL2 (decoded) at that epoch', align: 'r' }, ...axisCols,
  ];
  const trialRows: TableRow[] = state.trials.map((t, i) => {
    const params = state.configs[t.config]!.params as SweepParams;
    return {
      trial: i + 1, run: t.runId, seed: t.seed, state: t.state, epochs: t.epochs, n: t.best, d: bestEpoch(t.runId)?.val.relL2Decoded ?? null,
      ...Object.fromEntries(sweep.axes.map((x) => [`p:${x.path}`, show(params[x.path])])),
    };
  });
  const configCols: TableColumn[] = [{ key: 'config', label: 'config', align: 'r' }, ...axisCols, { key: 'n', label: 'val relL2 (normalized), mean ± std', align: 'r' }, { key: 'd', label: 'val relL2 (decoded), mean ± std', align: 'r' }, { key: 'seeds', label: 'seeds' }];
  const meanStd = (v: number[]) => {
    if (!v.length) return null;
    const m = v.reduce((s, x) => s + x, 0) / v.length;
    return { mean: m, std: v.length > 1 ? Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1)) : 0 };
  };
  const configRows: TableRow[] = a.configs.map((c) => {
    const decoded = state.trials.filter((t) => t.config === c.config && t.best !== null).flatMap((t) => { const e = bestEpoch(t.runId); return e ? [e.val.relL2Decoded] : []; });
    return {
      config: c.config, ...Object.fromEntries(sweep.axes.map((x) => [`p:${x.path}`, show(c.params[x.path])])),
      n: c.mean === null ? null : c.n > 1 ? { mean: c.mean, std: c.std ?? 0 } : c.mean, d: decoded.length > 1 ? meanStd(decoded) : decoded[0] ?? null, seeds: `${c.n} of ${c.seeds}`,
    };
  });
  const importanceCols: TableColumn[] = [{ key: 'path', label: 'parameter' }, { key: 'importance', label: 'importance', align: 'r', digits: 3 }, { key: 'correlation', label: 'correlation with val relL2 (normalized)', align: 'r', digits: 3 }];
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
      { heading: 'Configurations: both relL2 conventions', html: tableHtml(configCols, configRows) },
      { heading: 'Trials', html: tableHtml(trialCols, trialRows) },
      { heading: 'Parameter importance', html: tableHtml(importanceCols, a.importance.map((r) => ({ path: r.path, importance: r.importance, correlation: r.correlation }))) },
      { heading: 'Sweep configuration (the base run with defaults filled in)', html: jsonHtml({ ...sweep, base: base.success ? base.data : sweep.base }) },
    ],
  };
}
