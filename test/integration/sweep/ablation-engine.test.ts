// An ablation is a sweep, through the real engine process and the service both hosts use (what the
// Ablation view's Launch calls): the variants' sweep is listed by sweeps.list, its trials are the
// runs of the seed groups the Ablation view reads ('<key>/<variant>', named after the base run),
// runs.group aggregates them, and a trial evaluates like any run (the view's error fields). Then,
// from the finished ablation's real run folders, what the view computes (its pure parts in
// renderer/src/logic/ablation-view-data.ts, the plots' builders): the table against runs.group, the
// bars with ±1 std, the LaTeX export, the error-field grid on one scale from the engine's
// evaluations at the full model's samples, the parameter counts, Gates' colours, the names after the
// base, the ablation found again from a member run, and the branch spectra across the variants
// against the kept evaluations. The browser test (test/e2e/ablation.e2e.test.ts) checks the launch and the view drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineService } from '../../helpers/engine-service';
import { TrainConfig, type JobSummary, type RunSummary, type SweepDetail, type SweepSummary } from '../../../main/api/contract';
import { ablationKey, ablationSweep, groupLabel, variantConfig, VARIANTS } from '../../../renderer/src/logic/ablation-plan';
import { ablationCaption, benchmarkOf, formatMeanStd, formatPercent, gridSamples, paperReference } from '../../../renderer/src/logic/ablation-results';
import { ablationBarRows, branchVariant, ablationPlan, ablationRows, ablationTable, evaluationTargets, fieldsFigureInput, firstDone, launchLabel, paramsEstimateParams, variantsToLaunch } from '../../../renderer/src/logic/ablation-view-data';
import { ablationBars } from '../../../renderer/src/plots/ablation-bars';
import { ablationFigure } from '../../../renderer/src/plots/ablation-figure';
import { COMPONENT_COLORS, NEUTRAL_COLOR } from '../../../renderer/src/plots/component-colors';
import { toCsv, toLatex } from '../../../main/api/table';
import { gateAlphaBars, type GateEpoch } from '../../../renderer/src/plots/gate-bars';
import { absentScalarReason } from '../../../renderer/src/logic/block-scalars';
import { branchOverlayTraces, branchShareFigure } from '../../../renderer/src/plots/branch-comparison';
import { branchComparisonTable } from '../../../main/api/diagnostics-tables';
import type { EvaluationResult, Result } from '../../../main/api/contract';

type RunGroup = Result<'runs.group'>;

process.env.LINO_BACKEND = 'cpu';
// trials in the engine thread: the same TrainingJobs.start path without a worker's tfjs start-up per trial
process.env.LINO_TRAIN_IN_THREAD = '1';
const { service, settled } = engineService();
// the browser test's base: synthetic 8×8 data, one epoch, M = 4, L = 1
const base = TrainConfig.parse({ name: 'abl base', seed: 5, data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2 }) as Record<string, unknown>;
const LABELS = ['LiNO (full)', 'LiNO w/o reflection', 'LiNO w/o refraction', 'LiNO w/o scattering'];
/** The finished trials (the first test), for the view's results (the second). */
let trained: RunSummary[] = [];

test('the Ablation view\'s launch is a sweep: in sweeps.list, its trials the runs of the variants\' seed groups, evaluated like any run', { timeout: 300_000 }, async () => {
  const configs = VARIANTS.map((v) => variantConfig(base, v, { key: 'r_base', seed: 5, name: 'abl base' })!);
  const s = (await service.call('sweeps.start', { config: ablationSweep(configs, 2) } as never)) as SweepSummary;
  // every run is listed at once, in its group, before any trains (the view's progress list)
  const listed = ((await service.call('runs.list', {})) as RunSummary[]).filter((r) => r.group?.startsWith('r_base/'));
  assert.equal(listed.length, 8);
  const list = (await service.call('sweeps.list', {})) as SweepSummary[];
  assert.ok(list.some((x) => x.id === s.id && x.name === 'ablation r_base' && x.method === 'grid' && x.trials === 8), JSON.stringify(list));

  let d: SweepDetail;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    d = (await service.call('sweeps.get', { id: s.id } as never)) as SweepDetail;
    if (!d.summary.active) break;
    if (Date.now() - t0 > 240_000) throw new Error(`ablation sweep did not end: ${JSON.stringify(d.summary)}`);
  }
  assert.equal(d.summary.status, 'done', d.summary.reason);
  assert.deepEqual(d.state.trials.map((t) => t.state), Array(8).fill('done'));
  const runs = (await service.call('runs.list', {})) as RunSummary[];
  const trialRuns = d.state.trials.map((t) => runs.find((r) => r.id === t.runId)!);
  trained = trialRuns;
  // the trials are the groups' runs: one run per variant and seed, named after the base run
  assert.deepEqual([...new Set(trialRuns.map((r) => r.group))].sort(), VARIANTS.map((v) => `r_base/${v.key}`).sort());
  assert.deepEqual(trialRuns.map((r) => r.seed).sort(), [5, 5, 5, 5, 6, 6, 6, 6]);
  assert.deepEqual(new Set(trialRuns.map((r) => r.id)), new Set(listed.map((r) => r.id)));
  const noRefl = trialRuns.find((r) => r.group === 'r_base/no-reflection' && r.seed === 6)!;
  assert.equal(noRefl.name, 'abl base/no-reflection (seed 6)');
  assert.equal(groupLabel('r_base/no-reflection', [{ id: 'r_base', name: 'abl base' }]), 'abl base/no-reflection');
  for (const v of VARIANTS) {
    const g = (await service.call('runs.group', { group: `r_base/${v.key}` } as never)) as { runs: { state: string; valRelL2: number | null }[]; valRelL2: { mean: number } | null };
    assert.deepEqual(g.runs.map((r) => r.state), ['done', 'done']);
    assert.ok(g.runs.every((r) => typeof r.valRelL2 === 'number') && g.valRelL2 !== null, `${v.key}: both seeds in the statistics`);
  }
  // a trial's best checkpoint evaluates with fields (the view's error-field grid)
  const full = trialRuns.find((r) => r.group === 'r_base/full')!;
  const job = (await service.call('runs.evaluate', { id: full.id, checkpoint: 'best', split: 'val', fields: true } as never)) as JobSummary;
  const ended = await settled(job.id, 120_000);
  assert.equal(ended.state, 'done', ended.error);
  const res = (ended.result as { resolutions: { fields?: unknown[] }[] }).resolutions[0]!;
  assert.ok((res.fields ?? []).length > 0);
});

/** An evaluation with fields through the engine, as the Ablation store asks for it (fieldsOf: best checkpoint, validation split). */
async function evaluated(id: string, indices?: number[]): Promise<EvaluationResult> {
  const job = (await service.call('runs.evaluate', { id, checkpoint: 'best', split: 'val', fields: true, ...(indices ? { indices } : {}) } as never)) as JobSummary;
  const ended = await settled(job.id, 120_000);
  assert.equal(ended.state, 'done', ended.error);
  return ended.result as EvaluationResult;
}

test('the view\'s results from the finished ablation: table = runs.group, bars with ±1 std, LaTeX, the error grid on one scale at the full model\'s samples, parameter counts; a member run finds the ablation again', { timeout: 300_000 }, async () => {
  assert.equal(trained.length, 8, 'the first test trained the eight runs');
  const runs = (await service.call('runs.list', {})) as RunSummary[];
  // A fresh page (as after a restart) picks one of the ablation's runs: its group names alone lead back to the ablation.
  const picked = runs.find((r) => r.group === 'r_base/no-refraction' && r.seed === 6)!;
  const key = ablationKey(picked);
  assert.equal(key, 'r_base');
  const config = ((await service.call('runs.get', { id: picked.id } as never)) as { config: Record<string, unknown> }).config;
  const plan = ablationPlan({ runs, base: picked, key, config, seeds: 2 });
  assert.equal(launchLabel(variantsToLaunch(plan).length, 2), 'All variants launched');
  const groups: Record<string, RunGroup> = {};
  for (const p of plan) groups[p.group] = (await service.call('runs.group', { group: p.group } as never)) as RunGroup;
  const rows = ablationRows(plan, groups);

  // Table rows: the four variants, both seeds done; mean ± std as runs.group reports it.
  const paper = paperReference(benchmarkOf(config));
  assert.equal(paper, null, 'no paper rows for synthetic data');
  const table = ablationTable({ rows, seeds: 2, paper, params: null });
  assert.deepEqual(table.tableRows.map((r) => r.variant), LABELS);
  assert.deepEqual(table.tableRows.map((r) => r.seeds), ['2/2', '2/2', '2/2', '2/2']);
  const g = groups['r_base/no-scattering']!;
  const noScattering = rows.find((r) => r.variant.key === 'no-scattering')!;
  assert.equal(formatMeanStd(noScattering.agg.valRelL2), `${g.valRelL2!.mean.toPrecision(4)} ± ${g.valRelL2!.std.toPrecision(2)}`);
  assert.ok(formatMeanStd(noScattering.agg.valRelL2Decoded).startsWith(`${g.valRelL2Decoded!.mean.toPrecision(4)} ± `));
  assert.match(formatPercent(table.tableRows[1]!.diff as number | null), /^[+-]\d+(\.\d+)? %$/, 'difference to full in percent');
  assert.deepEqual(table.exportColumns.map((c) => c.key), ['variant', 'off', 'seeds', 'norm', 'decoded', 'params', 'diff'], 'no paper column');

  // Bars: one per variant, ±1 std error bars, each "without" bar in its component's colour (as in Gates), full neutral.
  const barRows = ablationBarRows(rows, paper);
  const bars = ablationBars({ rows: barRows, measuredTitle: 'measured here', paperSetting: null, scale: 'linear' });
  const measured = (bars.data as { type: string; xaxis?: string; x: string[]; y: number[]; error_y: { array: number[] }; marker: { color: string } }[]).filter((t) => !t.xaxis || t.xaxis === 'x');
  assert.deepEqual([...new Set(measured.map((t) => t.type))], ['bar']);
  assert.deepEqual(measured.map((t) => t.x[0]), LABELS);
  assert.deepEqual(measured.map((t) => t.marker.color), [NEUTRAL_COLOR, COMPONENT_COLORS.reflection, COMPONENT_COLORS.refraction, COMPONENT_COLORS.scattering]);
  assert.ok(Math.abs(measured[3]!.y[0]! - g.valRelL2!.mean) < 1e-12 && Math.abs(measured[3]!.error_y.array[0]! - g.valRelL2!.std) < 1e-12);
  // a linear value axis by default (bars a few percent apart look it), log on request
  assert.equal((bars.layout.yaxis as { type: string }).type, 'linear');
  assert.equal((ablationBars({ rows: barRows, measuredTitle: 'measured here', paperSetting: null, scale: 'log' }).layout.yaxis as { type: string }).type, 'log');

  // The table to LaTeX (booktabs), as the export bar writes it.
  const caption = ablationCaption({ runName: 'abl base', seeds: 2 });
  const latex = (t: typeof table) => toLatex(t.exportColumns, t.exportRows, { caption, label: `tab:ablation-${key}`, bold: t.bestRow >= 0 ? { norm: t.bestRow } : undefined });
  const tex = latex(table);
  assert.match(tex, /\\toprule\nVariant & Component off & Seeds done & Best val relL2 \(normalized\)/);
  for (const l of LABELS) assert.match(tex, new RegExp(`^${l.replace(/[()]/g, '\\$&')} & .* \\$\\\\pm\\$ `, 'm'));
  assert.match(tex, /\\bottomrule/);

  // Error fields for the same samples: the full model's first finished seed, then the three others at its best / median / worst samples.
  const targets = evaluationTargets(rows)!;
  assert.equal(targets.full.runId, firstDone(rows[0]!)!.id);
  assert.deepEqual(targets.others.map((t) => t.variant), ['no-reflection', 'no-refraction', 'no-scattering']);
  const full = await evaluated(targets.full.runId);
  const fields = full.resolutions[0]!.fields ?? [];
  const samples = gridSamples(fields.filter((f) => f.which !== 'index'));
  const others = new Map<string, EvaluationResult>();
  for (const t of targets.others) others.set(t.variant, await evaluated(t.runId, samples.map((s) => s.index)));
  const figure = ablationFigure(fieldsFigureInput({ rows, samples, full, resultOf: (v) => others.get(v) ?? null }));
  const traces = figure.data as { name: string; coloraxis: string; z: number[][] }[];
  const cols = traces.filter((t) => t.coloraxis === 'coloraxis').length;
  assert.ok(cols >= 1 && cols <= 3, `${cols} sample columns`);
  assert.equal(traces.length, 5 * cols, 'a reference row and one |error| row per variant, every panel present');
  assert.ok(traces.every((t) => t.z.length === 8 && t.z[0]!.length === 8));
  assert.equal(traces.filter((t) => t.coloraxis === 'coloraxis2').length, 4 * cols, 'every error panel on the one shared axis');
  const axis = figure.layout.coloraxis2 as { colorscale: [number, string][]; cmin: number; cmax: number };
  assert.deepEqual([axis.colorscale[0]![1], axis.cmin], ['#00224e', 0]);
  assert.ok(traces.some((t) => t.name.startsWith('|error| LiNO w/o scattering · ')));
  // every error panel lies within the shared scale, and one reaches its top
  const maxErr = Math.max(...traces.filter((t) => t.coloraxis === 'coloraxis2').flatMap((t) => t.z.flatMap((row) => Array.from(row))));
  assert.ok(maxErr > 0 && Math.abs(maxErr - axis.cmax) < 1e-12, `largest error ${maxErr}, scale to ${axis.cmax}`);
  // row labels are annotations: text in the SVG and PDF exports
  const annotations = (figure.layout.annotations as { text: string }[]).map((a) => a.text);
  for (const l of ['Reference', '|error| LiNO w/o reflection', '|error| LiNO (full)', '|error| LiNO w/o scattering']) assert.ok(annotations.includes(l), `'${l}' as text`);

  // Parameter counts (estimated with the evaluation's shapes when the runs do not record them), in the table and its LaTeX export.
  const f0 = fields[0]!;
  const shape = { grid: full.resolutions[0]!.grid, inChannels: f0.input.length, outChannels: f0.reference.length };
  const params: Record<string, number> = {};
  for (const [variant, m] of Object.entries(targets.models)) {
    const ask = paramsEstimateParams(m, shape);
    assert.ok(ask, `${variant}: a LiNO model with its scattering setting`);
    params[variant] = ((await service.call('model.estimate', ask as never)) as { params: number }).params;
  }
  const counted = latex(ablationTable({ rows, seeds: 2, paper, params }));
  const cells = LABELS.map((l) => counted.split('\n').find((line) => line.startsWith(`${l} & `))!.split(' & ')[5]!);
  for (const p of cells) assert.match(p, /^\d+$/, `a parameter count in the LaTeX table: ${cells}`);
  assert.ok(Number(cells[0]) > Number(cells[3]!), 'the full model has more parameters than the one without scattering');

  // Gates: a component keeps its colour whichever others the run has (full vs w/o reflection), and
  // tau is explained as full scattering's (these runs use efficient scattering).
  const lastGates = async (id: string) => {
    const m = (await service.call('runs.metrics', { id } as never)) as { records: (GateEpoch & { type: string })[] };
    return m.records.filter((r) => r.type === 'epoch' && r.blocks?.length > 0).at(-1)!;
  };
  const colorsOf = (e: GateEpoch) => Object.fromEntries((gateAlphaBars(e).data as { name: string; marker: { color: string } }[]).map((d) => [d.name, d.marker.color]));
  const fullGates = await lastGates(targets.full.runId);
  const noReflection = await lastGates(targets.others.find((t) => t.variant === 'no-reflection')!.runId);
  assert.deepEqual(colorsOf(fullGates), { reflection: COMPONENT_COLORS.reflection, refraction: COMPONENT_COLORS.refraction, scattering: COMPONENT_COLORS.scattering });
  assert.deepEqual(colorsOf(noReflection), { refraction: COMPONENT_COLORS.refraction, scattering: COMPONENT_COLORS.scattering });
  assert.match(absentScalarReason('tau', fullGates.blocks as never) ?? '', /full scattering.*this run uses efficient scattering/);

  // Runs: the ablation's groups and runs go by the base run's name, not its id.
  assert.equal(groupLabel('r_base/full', runs), 'abl base/full');
  for (const m of rows[0]!.members) assert.match(m.name, /^abl base\/full \(seed [56]\)$/);
});

test('branch spectra across the variants: per band shares and overlaid spectra equal to the kept evaluations, CSV with the conventions named', { timeout: 300_000 }, async () => {
  assert.equal(trained.length, 8, 'the first test trained the eight runs');
  const runs = (await service.call('runs.list', {})) as RunSummary[];
  const picked = runs.find((r) => r.group === 'r_base/full' && r.seed === 5)!;
  const config = ((await service.call('runs.get', { id: picked.id } as never)) as { config: Record<string, unknown> }).config;
  const rows = ablationRows(ablationPlan({ runs, base: picked, key: 'r_base', config, seeds: 2 }), {});
  // each variant's first finished seed, evaluated with diagnostics as the view asks (best checkpoint, validation split)
  const targets = rows.filter((r) => r.config).map((r) => ({ label: r.variant.label, run: firstDone(r)! }));
  assert.deepEqual(targets.map((t) => t.label), LABELS);
  const variants: NonNullable<ReturnType<typeof branchVariant>>[] = [];
  for (const t of targets) {
    const job = (await service.call('runs.evaluate', { id: t.run.id, checkpoint: 'best', split: 'val', diagnostics: true } as never)) as JobSummary;
    const ended = await settled(job.id, 120_000);
    assert.equal(ended.state, 'done', ended.error);
    const v = branchVariant(t.label, t.run.id, ended.result as EvaluationResult);
    assert.ok(v, `${t.label}: its evaluation has branch spectra`);
    variants.push(v);
  }
  // the kept evaluations (runs.evaluation with diagnostics), what a reload shows
  type Kept = { branchSpectra: { blocks: { components: string[]; spectra: Record<string, number[]>; bandShare: Record<string, Record<string, number | null>> }[] } };
  const kept: Kept[] = [];
  for (const t of targets) kept.push((await service.call('runs.evaluation', { id: t.run.id, checkpoint: 'best', split: 'val', diagnostics: true } as never)) as Kept);
  const lines = branchOverlayTraces(variants, 0) as { name: string; y: (number | null)[] }[];
  assert.equal(lines.length, 9, 'three branches in full, two in each variant without one');
  const want = targets.flatMap((t, i) => kept[i]!.branchSpectra.blocks[0]!.components.map((k) => ({ name: `${t.label} · ${k}`, y: kept[i]!.branchSpectra.blocks[0]!.spectra[k]!.map((e) => (e > 0 ? e : null)) })));
  assert.deepEqual(lines.map((l) => ({ name: l.name, y: l.y })), want);
  const bars = branchShareFigure(variants, 0).data as { name: string; xaxis: string; x: string[]; y: (number | null)[] }[];
  assert.equal(bars.length, 9, 'per band a panel, per branch a trace');
  const lowRefr = bars.find((b) => b.name === 'refraction' && b.xaxis === 'x')!;
  assert.deepEqual(lowRefr.x, LABELS);
  assert.deepEqual(lowRefr.y, kept.map((k) => k.branchSpectra.blocks[0]!.bandShare.refraction?.low ?? null));
  assert.equal(bars.find((b) => b.name === 'reflection' && b.xaxis === 'x')!.y[1], null, 'no reflection bar without reflection');
  // the table to CSV: both relL2 conventions and the band edges named in the header, one row per variant and branch
  const table = branchComparisonTable(variants);
  const csv = toCsv(table.columns, table.rows).trim().split(/\r?\n/);
  assert.match(csv[0]!, /^variant,run,relL2 \(normalized\),relL2 \(decoded\),block,branch,energy share low \(k<4\),/);
  assert.equal(csv.length, 1 + 9);
});
