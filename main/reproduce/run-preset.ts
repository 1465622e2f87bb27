// Runs a reproduction preset (presets.ts) through the engine's own pieces: each arm and seed is a
// run in the workspace trained by trainRun (main/train/runner.ts), evaluated by evaluateRun
// (resolution transfer, rollout, fields); the data of one spec are generated once and handed to
// every run that uses it. Writes the tables (CSV and LaTeX, reported rows apart and labelled) and
// the figure data (JSON) into `outDir`. Shared by `lino reproduce` and the engine's 'reproduce' job.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReproTable, ReproduceResult } from '../api/reproduce';
import { EpochMetrics } from '../runs/run-records';
import { tableRows } from '../api/reproduce';
import { toCsv, toLatex } from '../api/table';
import { RunStore, type RunHandle } from '../runs/run-store';
import { seedRunConfig } from '../runs/seed-group';
import { parseRunConfig, trainRun } from '../train/runner';
import { parseTorchBackend, trainTorchRun } from '../train/torch-run';
import { pythonCommand } from '../train/torch-probe';
import { readSettings } from '../workspace/settings';
import { evaluateRun } from '../train/evaluate-run';
import { loadTrainData } from '../train/data-source';
import { modelConfigFor } from '../train/trainer';
import type { TrainData } from '../train/data';
import { modelEntry } from '../model/registry';
import { armConfig, type PresetArm, type PresetSize, type ReproducePreset } from './presets';
import { mainTable, transferTable, type ArmRun } from './tables';
import { ablationFigure, meshFigure, rolloutFigure, stepErrorFigure, type FigureData } from './figures';

export interface RunPresetOptions {
  workspace: string;
  outDir: string;
  signal?: AbortSignal;
  /** fraction of the whole preset in [0, 1] and what it is doing. */
  onProgress?: (fraction: number, message: string) => void;
  owner?: string;
  /** 'torch' or 'torch:<device>': every run trains on PyTorch (config backend 'torch'); default: the engine. */
  backend?: string;
  /** The how-manieth reproduction of this preset and size in the workspace (from 2: run names and groups say 'run N'). */
  repeat?: number;
}

/** What a preset's runs are called: 'darcy-ablation-tiny', or 'darcy-ablation-tiny-run2' for a second reproduction. */
export function reproductionName(p: { name: string }, size: string, repeat = 1): string {
  return `${p.name}-${size}${repeat > 1 ? `-run${repeat}` : ''}`;
}

interface Planned { arm: PresetArm; seed: number; resolution?: number; group: string; index: number }

/** Every run of the preset at a size, in order: arm by arm, resolution by resolution, seed by seed. */
export function planRuns(p: ReproducePreset, size: PresetSize, stamp = Date.now().toString(36)): Planned[] {
  const s = p.sizes[size];
  const out: Planned[] = [];
  for (const arm of p.arms) {
    for (const resolution of s.resolutions ?? [undefined]) {
      const group = `${p.name}-${size}-${arm.key}${resolution ? `-s${resolution}` : ''}-${stamp}`;
      for (let i = 0; i < s.seeds; i++) out.push({ arm, seed: 42 + i, ...(resolution ? { resolution } : {}), group, index: i });
    }
  }
  return out;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : Number.NaN;
};

class Cancelled extends Error {
  constructor() { super('reproduction cancelled'); }
}

/** Trains one planned run (data from the cache) and reads its best epoch. */
async function trainOne(p: ReproducePreset, size: PresetSize, plan: Planned, store: RunStore, cache: Map<string, TrainData>, o: RunPresetOptions, tick: (epochInRun: number, msg: string) => void): Promise<{ run: RunHandle; rec: ArmRun }> {
  const base = parseRunConfig(armConfig(p, size, plan.arm, 42, plan.resolution), `preset ${p.name}`);
  // a second reproduction's runs get names of their own: no two runs alike in the pickers
  if ((o.repeat ?? 1) > 1) base.name = String(base.name).replace(`${p.name}-${size}/`, `${reproductionName(p, size, o.repeat)}/`);
  const torch = o.backend ? parseTorchBackend(o.backend) : null;
  const seeded = seedRunConfig(base, plan.group, plan.index);
  const cfg = torch ? { ...seeded, backend: 'torch', torch: { ...torch, gpus: 1 } } : seeded;
  const key = JSON.stringify(cfg.data);
  let data = cache.get(key);
  if (!data) {
    tick(0, `${plan.arm.label}: preparing the data`);
    data = await loadTrainData(cfg.data, { workspace: o.workspace, signal: o.signal });
    cache.set(key, data);
  }
  const run = store.create(cfg);
  let estimateBytes = 0;
  const out = await (torch ? trainTorchRun : trainRun)(run, {
    workspace: o.workspace, signal: o.signal, data, owner: o.owner ?? 'a reproduction', python: pythonCommand(readSettings().python),
    onPlan: (plan) => { estimateBytes = plan.estimateBytes; },
    onEpoch: (e) => tick(e.epoch, `${plan.arm.label}${plan.resolution ? ` at s = ${plan.resolution}` : ''} seed ${cfg.seed}: epoch ${e.epoch}/${cfg.epochs}, val relL2 ${e.val.relL2.toExponential(3)}`),
  });
  if (o.signal?.aborted) throw new Cancelled();
  if (out.state !== 'done') throw new Error(`preset ${p.name}: run ${run.id} (${plan.arm.label}) ended ${out.state}${out.reason ? `: ${out.reason}` : ''}`);
  const epochs = run.readMetrics().records.flatMap((r) => {
    const e = EpochMetrics.safeParse(r);
    return e.success ? [e.data] : [];
  });
  const best = epochs.reduce((a, b) => (b.val.relL2 < a.val.relL2 ? b : a), epochs[0]!);
  const rec: ArmRun = {
    arm: plan.arm.key, label: plan.arm.label, kind: cfg.model.kind, seed: cfg.seed, runId: run.id, epochs: cfg.epochs,
    bestEpoch: best.epoch, relL2: best.val.relL2, relL2Decoded: best.val.relL2Decoded,
    // the first epoch carries the backend's warm-up: the median is the steady time per epoch
    secondsPerEpoch: median(epochs.map((e) => e.epochSeconds)),
    estimateBytes, params: modelEntry(cfg.model.kind).paramCount(modelConfigFor(cfg, data)),
    ...(plan.resolution ? { resolution: plan.resolution } : {}),
    grid: [...data.manifest.grid],
  };
  return { run, rec };
}

function writeTable(outDir: string, base: string, t: ReproTable): string[] {
  const { columns, rows } = tableRows(t);
  const csv = join(outDir, `${base}.csv`);
  const tex = join(outDir, `${base}.tex`);
  writeFileSync(csv, toCsv(columns, rows));
  writeFileSync(tex, toLatex(columns, rows, { caption: `${t.title}. ${t.notes.join('. ')}.`, label: `tab:${base}` }));
  return [csv, tex];
}

/** Runs the preset at a size; throws 'reproduction cancelled' when the signal stops it. */
export async function runPreset(p: ReproducePreset, size: PresetSize, o: RunPresetOptions): Promise<ReproduceResult> {
  const t0 = Date.now();
  const s = p.sizes[size];
  const plans = planRuns(p, size, `${(o.repeat ?? 1) > 1 ? `run${o.repeat}-` : ''}${Date.now().toString(36)}`);
  const store = new RunStore(join(o.workspace, 'runs'));
  const cache = new Map<string, TrainData>();
  const evals = (s.transfer?.length ? p.arms.length : 0) + (p.figures.some((f) => f === 'rollout' || f === 'mesh-field') ? p.arms.length : 0);
  const units = plans.length * s.epochs + evals;
  let done = 0;
  const progress = (extra: number, msg: string) => o.onProgress?.(Math.min(1, (done + extra) / units), msg);
  const trained: { plan: Planned; run: RunHandle; rec: ArmRun }[] = [];
  for (const plan of plans) {
    if (o.signal?.aborted) throw new Cancelled();
    const r = await trainOne(p, size, plan, store, cache, o, (e, m) => progress(e, m));
    done += s.epochs;
    trained.push({ plan, ...r });
  }
  cache.clear();
  const tables: ReproTable[] = [];
  const figures: { kind: string; data: FigureData }[] = [];
  const evalStep = async <T>(msg: string, f: () => Promise<T>): Promise<T> => {
    if (o.signal?.aborted) throw new Cancelled();
    progress(0, msg);
    const v = await f();
    done += 1;
    return v;
  };
  if (s.transfer?.length) {
    const rows = [];
    for (const arm of p.arms) {
      const lowest = trained.filter((t) => t.plan.arm === arm).sort((a, b) => (a.plan.resolution ?? 0) - (b.plan.resolution ?? 0))[0]!;
      const ev = await evalStep(`${arm.label}: resolution transfer`, () => evaluateRun(lowest.run, { resolutions: s.transfer, signal: o.signal }));
      for (const r of ev.resolutions) rows.push({ label: arm.label, kind: lowest.rec.kind, trainedAt: lowest.plan.resolution ?? 0, evaluatedAt: r.grid[0]!, relL2: r.metrics.relL2, relL2Decoded: r.metrics.relL2Decoded, ...(r.origin ? { origin: r.origin } : {}) });
    }
    tables.push(transferTable(p, size, rows));
  }
  if (p.figures.includes('rollout') || p.figures.includes('mesh-field')) {
    const evaluated = [];
    // The figures show one sample for every model: the first model's median validation sample.
    let sample: number | undefined;
    for (const t of trained.filter((x) => x.plan.index === 0)) {
      const indices = sample === undefined ? [] : [sample];
      const ev = await evalStep(`${t.plan.arm.label}: evaluating the best checkpoint`, () => evaluateRun(t.run, { fields: true, indices, signal: o.signal }));
      const r = ev.resolutions[0]!;
      sample ??= r.median;
      if (r.metrics.steps) Object.assign(t.rec, { steps: r.metrics.steps, rolloutRelL2: r.metrics.rolloutRelL2, relL2: r.metrics.relL2, relL2Decoded: r.metrics.relL2Decoded });
      evaluated.push({ label: t.plan.arm.label, runId: t.run.id, res: r, sample });
    }
    if (p.figures.includes('step-error')) figures.push({ kind: 'step-error', data: stepErrorFigure(evaluated) });
    if (p.figures.includes('rollout')) figures.push({ kind: 'rollout', data: rolloutFigure(evaluated) });
    if (p.figures.includes('mesh-field')) figures.push({ kind: 'mesh-field', data: meshFigure(evaluated) });
  }
  const runs = trained.map((t) => t.rec);
  tables.unshift(mainTable(p, size, runs));
  if (p.figures.includes('ablation-bars')) figures.push({ kind: 'ablation-bars', data: ablationFigure(tables[0]!) });
  mkdirSync(o.outDir, { recursive: true });
  const base = `${p.name}-${size}`;
  const files = tables.flatMap((t, i) => writeTable(o.outDir, i === 0 ? base : `${base}-transfer`, t));
  const figureFiles = figures.map((f) => {
    const file = join(o.outDir, `${base}-${f.kind}.json`);
    writeFileSync(file, JSON.stringify(f.data));
    files.push(file);
    return { kind: f.kind, file, data: f.data };
  });
  const result: ReproduceResult = {
    preset: p.name, size, outDir: o.outDir, files, tables, figures: figureFiles, seconds: (Date.now() - t0) / 1000,
    runs: trained.map((t) => ({ id: t.run.id, arm: t.plan.arm.key, seed: t.rec.seed, ...(t.plan.resolution ? { resolution: t.plan.resolution } : {}) })),
  };
  const summary = join(o.outDir, `${base}.json`);
  // armRuns: what the tables are rebuilt from when the reproduction is read back (readback.ts)
  writeFileSync(summary, JSON.stringify({ ...result, repeat: o.repeat ?? 1, armRuns: runs, figures: figureFiles.map(({ kind, file }) => ({ kind, file })), files: [...files, summary] }, null, 1));
  result.files.push(summary);
  o.onProgress?.(1, `done: ${p.name} (${size})`);
  return result;
}
