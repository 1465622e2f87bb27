// A run's offline report: configuration with its defaults filled in, seed, data provenance (the data
// spec, what it resolved to, the stored dataset's generator, parameters and content hash), the
// environment it trained in, curves per epoch and per step as inline SVG, the per-epoch table in both
// relL2 conventions, and the user's notes and tags.
import { readWorkspaceSettings } from '../workspace/workspace-settings';
import { existsSync } from 'node:fs';
import { readUserText } from '../util/user-file';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { TrainConfig } from '../train/config';
import { EpochMetrics, StepMetrics } from '../runs/run-records';
import { readRunMeta } from '../runs/run-meta';
import { RunStore, groupSummary, type RunHandle } from '../runs/run-store';
import { TFJS_VERSION, VERSION } from '../version';
import { factsHtml, figuresHtml, jsonHtml, notesHtml, tableHtml, type Report } from './report-page';
import { lineChartSvg } from './svg-chart';
import { formatNumber, type TableColumn, type TableRow } from '../api/table';

/** The run's metrics.jsonl split into epochs and steps (lines of another shape skipped). */
export function runCurves(run: RunHandle): { epochs: EpochMetrics[]; steps: StepMetrics[] } {
  const epochs: EpochMetrics[] = [];
  const steps: StepMetrics[] = [];
  for (const r of run.readMetrics().records) {
    const e = EpochMetrics.safeParse(r);
    if (e.success) epochs.push(e.data);
    const s = StepMetrics.safeParse(r);
    if (s.success) steps.push(s.data);
  }
  return { epochs, steps };
}

/** The stored dataset's manifest.json (generator or source, parameters, hash), or null where it is gone or unreadable. */
function datasetManifest(workspace: string, id: unknown): Record<string, unknown> | null {
  if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return null;
  const path = join(workspace, 'datasets', id, 'manifest.json');
  if (!existsSync(path)) return null;
  try {
    // a workspace may come from elsewhere: a FIFO or a huge file named manifest.json must not hang the report
    return JSON.parse(readUserText(path, { what: 'a dataset manifest (JSON)', maxBytes: 16 * 2 ** 20 })) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function provenanceHtml(workspace: string, raw: Record<string, unknown>): string {
  const resolved = (raw.resolvedData ?? null) as Record<string, unknown> | null;
  const m = datasetManifest(workspace, resolved?.id ?? (raw.data as { id?: unknown } | undefined)?.id);
  const facts: [string, string][] = [
    ['data specification', JSON.stringify(raw.data)],
    ['dataset id', String(resolved?.id ?? '—')],
    ['content hash (sha256 of the arrays)', String(resolved?.contentHash ?? m?.contentHash ?? '—')],
    ['grid', JSON.stringify(resolved?.grid ?? m?.grid ?? null)],
    ['split sizes', JSON.stringify(resolved?.counts ?? m?.counts ?? null)],
  ];
  if (m) {
    facts.push(['benchmark', String(m.benchmark)], ['generator / source', JSON.stringify(m.source)], ['pipeline parameters', JSON.stringify(m.parameters)], ['dataset created', String(m.createdAt)]);
    if (m.arrays) facts.push(['arrays', JSON.stringify(m.arrays)]);
  } else {
    facts.push(['stored dataset', 'not in this workspace (deleted, or the data were not kept); the hash above is what the run trained on']);
  }
  const norm = resolved?.normalization;
  return factsHtml(facts) + (norm ? `<p class="muted">Normalizer the run trained with:</p>${jsonHtml(norm)}` : '');
}

function environmentHtml(run: RunHandle, epochs: EpochMetrics[]): string {
  const st = run.readStatus();
  const backends = [...new Set(epochs.map((e) => e.backend))];
  const torch = (run.readConfig() as { torch?: unknown }).torch;
  // A run folder records its backend and host, not library versions: those below are this build's.
  return factsHtml([
    ['backend', backends.join(', ') || st.backend || '—'],
    ...(torch ? [['PyTorch device and GPUs', JSON.stringify(torch)] as [string, string]] : []),
    ['trained on host', st.host ?? '—'],
    ['peak memory (RSS, last epoch)', epochs.length ? `${(epochs.at(-1)!.peakRssBytes / 2 ** 20).toFixed(0)} MiB` : '—'],
    ['LiNO Workbench (the build writing this report)', VERSION],
    ['TensorFlow.js (that build)', TFJS_VERSION],
    ['Node.js (that build)', process.versions.node],
    ['report written on', `${platform()} ${arch()}`],
  ]);
}

const EPOCH_COLUMNS: TableColumn[] = [
  { key: 'epoch', label: 'epoch', align: 'r' },
  { key: 'train', label: 'train relL2 (normalized)', align: 'r' },
  { key: 'val', label: 'val relL2 (normalized)', align: 'r' },
  { key: 'valD', label: 'val relL2 (decoded)', align: 'r' },
  { key: 'test', label: 'test relL2 (normalized)', align: 'r' },
  { key: 'testD', label: 'test relL2 (decoded)', align: 'r' },
  { key: 'lr', label: 'lr', align: 'r' },
  { key: 'seconds', label: 'seconds', align: 'r', digits: 3 },
  { key: 'best', label: 'best', align: 'c' },
];

export function epochRows(epochs: EpochMetrics[]): TableRow[] {
  return epochs.map((e) => ({
    epoch: e.epoch, train: e.train.relL2, val: e.val.relL2, valD: e.val.relL2Decoded, test: e.test?.relL2, testD: e.test?.relL2Decoded, lr: e.lr, seconds: e.epochSeconds, best: e.best ? 'yes' : '',
  }));
}

function curvesHtml(epochs: EpochMetrics[], steps: StepMetrics[]): string {
  const ep = (f: (e: EpochMetrics) => number | undefined) => epochs.flatMap((e) => (f(e) === undefined ? [] : [[e.epoch, f(e)!] as [number, number]]));
  return figuresHtml([
    lineChartSvg({ title: 'relL2 per epoch (normalized)', xLabel: 'epoch', yLabel: 'relL2', logY: true, dots: true, series: [
      { name: 'train', points: ep((e) => e.train.relL2) },
      { name: 'val', points: ep((e) => e.val.relL2), dashed: true },
      ...(epochs.some((e) => e.test) ? [{ name: 'test', points: ep((e) => e.test?.relL2) }] : []),
    ] }),
    lineChartSvg({ title: 'val relL2 per epoch (decoded, physical units)', xLabel: 'epoch', yLabel: 'relL2', logY: true, dots: true, series: [
      { name: 'val (decoded)', points: ep((e) => e.val.relL2Decoded) },
      ...(epochs.some((e) => e.test) ? [{ name: 'test (decoded)', points: ep((e) => e.test?.relL2Decoded) }] : []),
    ] }),
    lineChartSvg({ title: 'training loss per optimizer step', xLabel: 'step', yLabel: 'loss', logY: true, series: [{ name: 'loss', points: steps.map((s) => [s.step, s.loss]) }] }),
    lineChartSvg({ title: 'learning rate per epoch', xLabel: 'epoch', yLabel: 'lr', dots: true, series: [{ name: 'lr', points: ep((e) => e.lr) }] }),
  ]);
}

/** A seed group's runs (the run among them) with their best epoch in both conventions, and mean ± std over the seeds. */
function groupHtml(run: RunHandle, group: string): string {
  const g = groupSummary(new RunStore(dirname(run.dir)), group);
  const cols: TableColumn[] = [
    { key: 'seed', label: 'seed', align: 'r' }, { key: 'id', label: 'run' }, { key: 'state', label: 'state' }, { key: 'epoch', label: 'best epoch', align: 'r' },
    { key: 'n', label: 'val relL2 (normalized)', align: 'r' }, { key: 'd', label: 'val relL2 (decoded)', align: 'r' },
  ];
  const rows: TableRow[] = g.runs.map((r) => ({ seed: r.seed, id: r.id === run.id ? `${r.id} (this run)` : r.id, state: r.state, epoch: r.bestEpoch, n: r.valRelL2, d: r.valRelL2Decoded }));
  if (g.runs.length > 1) rows.push({ seed: null, id: `mean ± std over ${g.runs.length} seeds`, state: '', epoch: null, n: g.valRelL2, d: g.valRelL2Decoded });
  return tableHtml(cols, rows);
}

/** The run's report, ready for reportHtml. */
export function runReport(workspace: string, run: RunHandle): Report {
  const raw = run.readConfig();
  const parsed = TrainConfig.safeParse(raw);
  const summary = run.summary();
  const meta = readRunMeta(run.dir);
  const { epochs, steps } = runCurves(run);
  const best = epochs.find((e) => e.epoch === summary.bestEpoch) ?? null;
  // the workspace's headline convention leads the facts; the tables keep both
  const headline = readWorkspaceSettings(workspace).relL2Headline;
  const headlined = best ? (headline === 'decoded' ? best.val.relL2Decoded : best.val.relL2) : null;
  const bestCols: TableColumn[] = [
    { key: 'split', label: 'split' },
    { key: 'n', label: 'relL2 (normalized)', align: 'r' },
    { key: 'd', label: 'relL2 (decoded)', align: 'r' },
  ];
  const bestRows: TableRow[] = best ? [
    { split: 'val', n: best.val.relL2, d: best.val.relL2Decoded },
    ...(best.test ? [{ split: 'test', n: best.test.relL2, d: best.test.relL2Decoded }] : []),
  ] : [];
  return {
    kind: 'run',
    title: `Run ${summary.name}`,
    facts: [
      ['run id', run.id], ['state', summary.state + (summary.reason ? ` (${summary.reason})` : '')], ['created', summary.createdAt],
      ['model', summary.modelKind ?? '—'], ['epochs', `${summary.epochsDone} of ${summary.epochs ?? '—'}`], ['seed', String(summary.seed ?? '—')],
      ['group (seeds)', summary.group ?? '—'], ['trainable parameters', summary.params == null ? '—' : String(summary.params)],
      ['training time', summary.trainSeconds == null ? '—' : `${summary.trainSeconds.toFixed(1)} s`],
      [`best val relL2 (${headline}, the workspace's headline)`, headlined === null ? '—' : formatNumber(headlined, 4)],
    ],
    sections: [
      { heading: 'Notes and tags', html: notesHtml(meta.notes, meta.tags) },
      { heading: `Best epoch${best ? ` (${best.epoch})` : ''}: both relL2 conventions`, html: best ? tableHtml(bestCols, bestRows) : '<p class="muted">No epoch finished.</p>' },
      ...(summary.group ? [{ heading: `Seeds of its group ${summary.group}`, html: groupHtml(run, summary.group) }] : []),
      { heading: 'Curves', html: curvesHtml(epochs, steps) },
      { heading: 'Per epoch', html: tableHtml(EPOCH_COLUMNS, epochRows(epochs)) },
      {
        heading: 'Configuration (defaults filled in)',
        html: parsed.success ? jsonHtml({ ...parsed.data, resolvedData: undefined }) : `<p class="muted">config.json does not parse as a current configuration (${parsed.error.issues.length} issues); as stored:</p>${jsonHtml(raw)}`,
      },
      { heading: 'Data provenance', html: provenanceHtml(workspace, raw) },
      { heading: 'Environment', html: environmentHtml(run, epochs) },
    ],
  };
}
