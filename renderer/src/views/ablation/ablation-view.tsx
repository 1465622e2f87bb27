import { useEffect, useId, useMemo, useState } from 'react';
import { oneOf, usePersisted } from '../../store/persisted-state';
import type { EvaluationResult, Result, RunSummary } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';
import { useTraining } from '../../store/training-store';
import { RunPicker } from '../../components/run-picker';
import { Plot } from '../../plots/plot';
import { PLOT_COLORS } from '../../plots/theme';
import { componentColor } from '../../plots/component-colors';
import type { Trace } from '../../plots/traces';
import { ablationFigure } from '../../plots/ablation-figure';
import { absError } from '../../plots/abs-error';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';
import { ablationKey, baseSeed, groupLabel, runBaseName, fullConfig, fullGroup, variantConfig, variantGroup, VARIANTS, type Variant, type VariantKey } from '../../store/ablation-plan';
import { useAblation } from '../../store/ablation-store';
import { aggregateGroup, benchmarkOf, formatPercent, gridSamples, paperReference, percentDiff, type GroupAggregate } from '../../store/ablation-results';

type Group = Result<'runs.group'>;
type Field = NonNullable<EvaluationResult['resolutions'][number]['fields']>[number];

const fmtMs = (g: { mean: number; std: number } | null | undefined) => (g ? `${g.mean.toPrecision(4)} ± ${g.std.toPrecision(2)}` : '—');
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The field a sample's error is drawn from: the first channel, or an autoregressive run's last rollout frame. */
function pickFrame(f: Field): { reference: number[]; prediction: number[] } {
  const last = f.stepRelL2 ? f.reference.length - 1 : 0;
  return { reference: f.reference[last]!, prediction: f.prediction[last]! };
}

/**
 * The ablation explorer: from any run, train the full model and the "without reflection /
 * refraction / scattering" variants as seed groups, then compare them (table, bars with ±1 std,
 * LaTeX/CSV) and draw their error fields for the same samples (the paper's Table 3 and Fig. 3).
 */
export function AblationView() {
  const api = useApp((s) => s.api);
  const jobs = useApp((s) => s.jobs);
  const theme = useApp((s) => s.theme);
  const runs = useTraining((s) => s.runs);
  const baseId = useTraining((s) => s.selectedRun);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const base = runs.find((r) => r.id === baseId) ?? null;
  const [seedsText, setSeedsText] = usePersisted<string>('ablation.seeds', '3', (v) => typeof v === 'string' && v.length <= 4);
  // Linear by default: on a log axis errors a few percent apart drew as bars of one height.
  const [barScale, setBarScale] = usePersisted<'linear' | 'log'>('ablation.barScale', 'linear', oneOf('linear', 'log'));
  const [config, setConfig] = useState<{ id: string; config: Record<string, unknown> } | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  const [launching, setLaunching] = useState(false);
  const [launchError, setLaunchError] = useState<string | null>(null);
  const [groups, setGroups] = useState<Record<string, Group>>({});
  const [groupError, setGroupError] = useState<string | null>(null);
  const [evalError, setEvalError] = useState<string | null>(null);
  const seedsId = useId();

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  const seeds = Number(seedsText);
  const seedsValid = Number.isInteger(seeds) && seeds >= 1 && seeds <= 20;

  // The base's configuration (what every variant copies).
  useEffect(() => {
    if (!api || !baseId) return;
    let live = true;
    setConfigError(null);
    api.call('runs.get', { id: baseId }).then(
      (g) => live && setConfig({ id: baseId, config: g.config }),
      (e) => live && setConfigError(`Reading the run's configuration failed: ${message(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, baseId]);

  const key = base ? ablationKey(base) : null;
  const mine = useAblation((s) => (key ? s.evals[key] ?? null : null));
  const params = useAblation((s) => (key ? s.params[key] ?? null : null));
  const { setEval, patchEval, setParams } = useAblation.getState();
  const groupSizes = useMemo(() => {
    const m = new Map<string, number>();
    for (const r of runs) if (r.group) m.set(r.group, (m.get(r.group) ?? 0) + 1);
    return m;
  }, [runs]);

  const plan = useMemo(() => {
    if (!base || !key || !config || config.id !== base.id || !seedsValid) return null;
    const cfg = fullConfig(config.config, base.group);
    const full = fullGroup({ key, groupSizes, seeds });
    const seedGroup = groupSizes.has(key) ? key : base.group;
    const seed = baseSeed(cfg, seedGroup ? runs.filter((r) => r.group === seedGroup).map((r) => r.seed) : []);
    return VARIANTS.map((v) => {
      const group = v.key === 'full' ? full.group : variantGroup(key, v.key);
      const members = runs.filter((r) => r.group === group).sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0));
      return { variant: v, group, reuse: v.key === 'full' && full.reuse, config: variantConfig(cfg, v, { key, seed, name: runBaseName(base) }), members };
    });
  }, [base, key, config, groupSizes, seeds, seedsValid, runs]);
  const benchmark = config ? benchmarkOf(config.config) : null;
  const paper = paperReference(benchmark);

  // Group statistics (runs.group) whenever a member's state or epoch count changes.
  const listKey = (plan ?? []).flatMap((p) => p.members.map((m) => `${m.id}:${m.state}:${m.epochsDone}`)).join(',');
  useEffect(() => {
    if (!api || !plan) return;
    let live = true;
    const names = plan.filter((p) => p.members.length > 0).map((p) => p.group);
    Promise.all(names.map((g) => api.call('runs.group', { group: g }))).then(
      (gs) => {
        if (!live) return;
        setGroups(Object.fromEntries(gs.map((g) => [g.group, g])));
        setGroupError(null);
      },
      (e) => live && setGroupError(`Reading the seed groups failed: ${message(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, listKey]);

  const toLaunch = (plan ?? []).filter((p) => p.config && p.members.length === 0 && !p.reuse);
  const launch = async () => {
    if (!api || toLaunch.length === 0) return;
    setLaunching(true);
    setLaunchError(null);
    try {
      // One seed group per variant; the engine queues every run and trains them one after another.
      for (const p of toLaunch) await api.call('train.start', { config: p.config!, seeds });
    } catch (e) {
      setLaunchError(`Could not queue the variants: ${message(e)}`);
    } finally {
      setLaunching(false);
      await refreshRuns();
    }
  };

  const rows = useMemo(() => {
    if (!plan) return [];
    return plan.map((p) => {
      const g = groups[p.group];
      const agg: GroupAggregate = aggregateGroup(g && g.group === p.group ? g.runs : p.members.map((m) => ({ id: m.id, seed: m.seed, state: m.state, valRelL2: null, valRelL2Decoded: null })));
      return { ...p, agg };
    });
  }, [plan, groups]);
  const fullRow = rows.find((r) => r.variant.key === 'full');

  const columns: TableColumn[] = [
    { key: 'variant', label: 'Variant' },
    { key: 'off', label: 'Component off' },
    { key: 'seeds', label: 'Seeds done', align: 'r' },
    { key: 'norm', label: 'Best val relL2 (normalized)', align: 'r' },
    { key: 'decoded', label: 'Best val relL2 (decoded)', align: 'r' },
    { key: 'params', label: 'Parameters', align: 'r' },
    { key: 'diff', label: 'vs full (%)', align: 'r', digits: 3 },
    ...(paper ? [{ key: 'paper', label: `Paper (${paper.setting})`, align: 'r' as const, digits: 3 }] : []),
  ];
  // The runs' own parameter count when the engine records it (RunSummary.params), else the
  // estimate made with the error-field evaluation.
  const paramsFor = (k: VariantKey) => recordedParams(rows.find((r) => r.variant.key === k)?.members ?? []) ?? params?.[k] ?? null;
  const tableRows: TableRow[] = rows.map((r) => ({
    variant: r.variant.label,
    off: r.variant.off,
    seeds: `${r.agg.done}/${r.agg.total || seeds}`,
    norm: r.agg.valRelL2 ? { mean: r.agg.valRelL2.mean, std: r.agg.valRelL2.std } : null,
    decoded: r.agg.valRelL2Decoded ? { mean: r.agg.valRelL2Decoded.mean, std: r.agg.valRelL2Decoded.std } : null,
    params: paramsFor(r.variant.key),
    diff: r.variant.key === 'full' ? null : percentDiff(r.agg.valRelL2?.mean, fullRow?.agg.valRelL2?.mean),
    ...(paper ? { paper: paper.values[r.variant.key] } : {}),
  }));

  // The lowest normalized mean is printed in bold in the LaTeX table, as in the paper.
  const bestRow = rows.reduce((best, r, i) => (r.agg.valRelL2 && (best < 0 || r.agg.valRelL2.mean < rows[best]!.agg.valRelL2!.mean) ? i : best), -1);
  const bars = useMemo((): Trace[] => {
    const withData = rows.filter((r) => r.agg.valRelL2);
    if (withData.length === 0) return [];
    const fg = PLOT_COLORS[theme].fg;
    const out: Trace[] = [{
      type: 'bar',
      name: 'mean over seeds (±1 std)',
      x: withData.map((r) => r.variant.label),
      y: withData.map((r) => r.agg.valRelL2!.mean),
      error_y: { type: 'data', array: withData.map((r) => r.agg.valRelL2!.std), visible: true, thickness: 1.5, width: 6 },
      // The component a variant switches off gives its bar's colour (the full model's is neutral).
      marker: { color: withData.map((r) => componentColor(r.variant.off)) },
      hovertemplate: '%{x}: %{y:.4g} ± %{error_y.array:.2g}<extra></extra>',
    }];
    if (paper) out.push({ type: 'scatter', mode: 'markers', name: `paper (${paper.setting})`, x: withData.map((r) => r.variant.label), y: withData.map((r) => paper.values[r.variant.key]), marker: { symbol: 'diamond-open', size: 10, color: fg } });
    return out;
  }, [rows, paper, theme]);
  const barLayout = useMemo(() => ({ xaxis: { title: 'Variant' }, yaxis: { title: 'Best val relL2 (normalized)', type: barScale, ...(barScale === 'linear' ? { rangemode: 'tozero' } : {}) }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 }, margin: { l: 70, r: 20, t: 40, b: 60 } }), [barScale]);

  // ---- error fields for the same samples ----
  const firstDone = (r: (typeof rows)[number]) => r.members.find((m) => m.state === 'done') ?? null;
  const evalReady = rows.length > 0 && rows.every((r) => !r.config || firstDone(r));
  const fullJob = mine ? jobs[mine.full] : undefined;
  const fullResult = fullJob?.state === 'done' ? (fullJob.result as EvaluationResult) : null;

  const evaluate = async () => {
    if (!api || !key) return;
    setEvalError(null);
    const full = rows.find((r) => r.variant.key === 'full');
    const run = full && firstDone(full);
    if (!run) return;
    try {
      const j = await api.call('runs.evaluate', { id: run.id, checkpoint: 'best', split: 'val', fields: true });
      setEval(key, { full: j.id, others: {}, othersAsked: false, samples: [] });
    } catch (e) {
      setEvalError(`Could not evaluate ${run.name}: ${message(e)}`);
    }
  };

  // Once the full model is evaluated: its best / median / worst samples are evaluated for every
  // other variant too (same indices), and the parameter counts follow from the data's channels.
  useEffect(() => {
    if (!api || !mine || !fullResult || mine.samples.length > 0 || !key) return;
    const res = fullResult.resolutions[0];
    const fields = res?.fields ?? [];
    if (fields.length === 0) {
      setEvalError('This run returned no sample fields (the grid is drawn for operator and rollout tasks only).');
      patchEval(key, mine.full, { othersAsked: true });
      return;
    }
    const samples = gridSamples(fields.filter((f) => f.which !== 'index'));
    patchEval(key, mine.full, { samples });
    (async () => {
      const others: Partial<Record<VariantKey, string>> = {};
      for (const r of rows) {
        const run = r.variant.key === 'full' ? null : firstDone(r);
        if (!run) continue;
        try {
          others[r.variant.key] = (await api.call('runs.evaluate', { id: run.id, checkpoint: 'best', split: 'val', fields: true, indices: samples.map((s) => s.index) })).id;
        } catch (e) {
          setEvalError(`Could not evaluate ${run.name}: ${message(e)}`);
        }
      }
      patchEval(key, mine.full, { others, othersAsked: true });
    })();
    const f0 = fields[0]!;
    if (!f0.stepRelL2 && res!.grid.length <= 2) {
      void Promise.all(rows.map(async (r) => {
        const m = r.config?.model as { width?: number; depth?: number; scattering?: string; components?: Variant['off'][] } | undefined;
        if (!m || (m.scattering !== 'efficient' && m.scattering !== 'full')) return null;
        const est = await api.call('model.estimate', {
          config: { dims: res!.grid.length as 1 | 2, inChannels: f0.input.length, outChannels: f0.reference.length, width: m.width ?? 128, depth: m.depth ?? 8, scattering: m.scattering, components: m.components as ('reflection' | 'refraction' | 'scattering')[] },
          grid: res!.grid,
          batch: 1,
        });
        return [r.variant.key, est.params] as const;
      })).then(
        (got) => setParams(key, Object.fromEntries(got.filter((x) => x !== null))),
        (e) => setEvalError(`Could not count the parameters: ${message(e)}`),
      );
    }
  }, [api, fullResult, mine?.full]);

  const figure = useMemo(() => {
    if (!mine || !fullResult || mine.samples.length === 0) return null;
    const res = fullResult.resolutions[0]!;
    const byIndex = (r: EvaluationResult | null, i: number) => r?.resolutions[0]?.fields?.find((f) => f.index === i) ?? null;
    const reference = mine.samples.map((s) => pickFrame(byIndex(fullResult, s.index)!).reference);
    const figRows = rows.filter((r) => r.config).map((r) => {
      const jobId = r.variant.key === 'full' ? mine.full : mine.others[r.variant.key];
      const job = jobId ? jobs[jobId] : undefined;
      const result = job?.state === 'done' ? (job.result as EvaluationResult) : null;
      return {
        label: r.variant.label,
        errors: mine.samples.map((s) => {
          const f = byIndex(result, s.index);
          if (!f) return null;
          const p = pickFrame(f);
          return absError(p.reference, p.prediction);
        }),
      };
    });
    const ar = !!byIndex(fullResult, mine.samples[0]!.index)?.stepRelL2;
    return ablationFigure({ grid: res.grid, samples: mine.samples.map((s) => s.label), reference, rows: figRows, referenceTitle: ar ? 'u (last step)' : 'u' });
  }, [mine, fullResult, jobs, rows]);
  const grid1D = fullResult?.resolutions[0]?.grid.length === 1;
  // About 130 px per row of panels: five rows fit a 768 px screen with a little scrolling.
  const figHeight = 130 * (1 + rows.filter((r) => r.config).length) + 40;
  const otherJobs = mine ? Object.values(mine.others).map((id) => jobs[id!]) : [];
  const failedEval = [fullJob, ...otherJobs].find((j) => j?.state === 'failed');
  // A job the engine no longer lists (it restarted) or one that ended lets the user evaluate again.
  const active = (j: (typeof jobs)[string] | undefined) => !!j && (j.state === 'queued' || j.state === 'running');
  const evalPending = !!mine && (active(fullJob) || (!!fullResult && !mine.othersAsked) || otherJobs.some(active));

  return (
    <section aria-labelledby="ablation-title" className="ablation-view">
      <h1 id="ablation-title">Ablation</h1>
      <p className="muted">
        Train the base run's configuration without reflection, without refraction and without scattering (and the full model) as seed groups, then compare them as in the paper's Table 3 and Fig. 3.
      </p>
      <RunPicker />
      {configError && <p className="error-message" role="alert">{configError}</p>}
      {base && key && (
        <div className="card ablation-launch">
          <h2>Variants of {key}</h2>
          <div className="row wrap">
            <label htmlFor={seedsId}>Seeds per variant</label>
            <input id={seedsId} type="number" min={1} max={20} value={seedsText} onChange={(e) => setSeedsText(e.target.value)} aria-invalid={!seedsValid} aria-describedby={seedsValid ? undefined : `${seedsId}-msg`} data-testid="ablation-seeds" style={{ width: '5em' }} />
            <button onClick={launch} disabled={!plan || launching || toLaunch.length === 0} data-testid="ablation-launch">
              {launching ? 'Queuing…' : toLaunch.length > 0 ? `Launch ${toLaunch.length} variant${toLaunch.length > 1 ? 's' : ''} (${toLaunch.length * seeds} runs)` : 'All variants launched'}
            </button>
            {!seedsValid && <span id={`${seedsId}-msg`} className="error-message">Seeds must be a whole number from 1 to 20.</span>}
            {launchError && <span className="error-message" role="alert">{launchError}</span>}
          </div>
          {plan && (
            <ul className="ablation-progress" data-testid="ablation-progress">
              {plan.map((p) => (
                <li key={p.variant.key} data-testid={`ablation-progress-${p.variant.key}`}>
                  <strong>{p.variant.label}</strong> <code title={p.group}>{groupLabel(p.group, runs)}</code>{p.reuse ? ' (the base run\'s own seed group)' : ''}:{' '}
                  {!p.config ? (
                    <span className="muted">not applicable (this component is already off in the base run)</span>
                  ) : p.members.length === 0 ? (
                    <span className="muted">not launched</span>
                  ) : (
                    p.members.map((m) => (
                      <span key={m.id} className={`state state-${m.state}`} title={m.reason ?? m.name}>
                        seed {m.seed ?? '?'}: {m.state}{m.state === 'running' ? ` ${m.epochsDone}/${m.epochs ?? '?'}` : ''}
                      </span>
                    ))
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {groupError && <p className="error-message" role="alert">{groupError}</p>}
      {rows.some((r) => r.members.length > 0) && (
        <>
          <h2>Results</h2>
          <div className="table-wrap">
            <table className="runs-table" data-testid="ablation-table">
              <caption className="muted">Best validation relL2 per seed, mean ± std over the finished seeds (both conventions); difference of the normalized mean to the full model.{paper ? ` The last column is the paper's Table 3 (${paper.setting}), for reference.` : ''}</caption>
              <thead>
                <tr>{columns.map((c) => <th scope="col" key={c.key} className={c.key === 'paper' ? 'muted' : undefined}>{c.label}</th>)}</tr>
              </thead>
              <tbody>
                {rows.map((r, i) => {
                  const t = tableRows[i]!;
                  return (
                    <tr key={r.variant.key} data-testid={`ablation-row-${r.variant.key}`}>
                      <th scope="row">{r.variant.label}</th>
                      <td>{r.variant.off ?? '—'}</td>
                      <td className="num" data-testid="ablation-seeds-done">{String(t.seeds)}</td>
                      <td className="num" data-testid="ablation-mean">{fmtMs(r.agg.valRelL2)}</td>
                      <td className="num">{fmtMs(r.agg.valRelL2Decoded)}</td>
                      <td className="num">{t.params == null ? '—' : Number(t.params).toLocaleString('en')}</td>
                      <td className="num">{r.variant.key === 'full' ? '—' : formatPercent(t.diff as number | null)}</td>
                      {paper && <td className="num muted">{(t.paper as number).toExponential(2)}</td>}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <TableExportBar title="Ablation" columns={columns} rows={tableRows} latex={{ label: `tab:ablation-${key}`, bold: bestRow >= 0 ? { norm: bestRow } : undefined }} />
          {bars.length > 0 ? (
            <>
            <label className="inline">
              <input type="checkbox" checked={barScale === 'log'} onChange={(e) => setBarScale(e.target.checked ? 'log' : 'linear')} data-testid="ablation-log-axis" /> Log axis
            </label>
            <Plot title="Ablation: best validation relL2 per variant" data={bars} layout={barLayout} height={300} testId="ablation-bars" />
            </>
          ) : (
            <p className="muted">The bar chart appears once a variant has a finished seed.</p>
          )}
          <h2>Error fields for the same samples</h2>
          <div className="row wrap">
            <button onClick={evaluate} disabled={!evalReady || evalPending} data-testid="ablation-fields-evaluate">
              Evaluate error fields
            </button>
            {!evalReady && <span className="muted">Every variant needs a finished run first.</span>}
            {evalPending && <span role="status" data-testid="ablation-fields-pending">evaluating…</span>}
            {failedEval && <span className="error-message" role="alert">Evaluation failed: {failedEval.error}</span>}
            {evalError && <span className="error-message" role="alert">{evalError}</span>}
          </div>
          {figure && (
            <>
              <p className="muted small">
                Rows: the reference, then |prediction − reference| of each variant's first finished seed; columns: the full model's best, median and worst validation samples. All error panels share one {grid1D ? 'y range' : 'cividis scale'} (0 to {figure.errorRange[1].toPrecision(3)}).
              </p>
              <div style={{ maxWidth: Number.isFinite(figure.widthFor(figHeight)) ? figure.widthFor(figHeight) : undefined }}>
                <Plot title="Ablation error fields" data={figure.data} layout={figure.layout} height={figHeight} {...(Number.isFinite(figure.widthFor(figHeight)) ? { exportSize: { width: figure.widthFor(figHeight), height: figHeight } } : {})} testId="ablation-fields" />
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}

/** The parameter count the engine recorded for a variant's runs (one model, so any member's). */
function recordedParams(members: RunSummary[]): number | null {
  for (const m of members) {
    const p = (m as RunSummary & { params?: number | null }).params;
    if (typeof p === 'number' && Number.isFinite(p)) return p;
  }
  return null;
}
