// A sweep (sweep.json): a base run configuration, axes over its fields, a search method, seeds per
// configuration, a budget and ASHA early stopping. Light (zod only) so the contract and the renderer
// can share it; TrainConfig is read inside functions only (the contract imports this file).
import { z } from 'zod';
import { TrainConfig } from '../train/config';
import { formatZodIssues } from '../util/zod-issues';
import { modelKindDeclaration, MODEL_KINDS } from '../model/kinds';

const AxisPath = z.string().regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*){0,3}$/, 'a dotted config field such as "optimizer.lr"');
/** An axis's string value (a kind, a backend, a path) is short: each one is stored, printed and sent with every trial. */
export const MAX_AXIS_STRING = 4096;
const AxisString = z.string().max(MAX_AXIS_STRING);
export const AxisValue = z.union([z.number(), AxisString, z.boolean(), z.array(AxisString).min(1).max(8)]);
export type AxisValue = z.infer<typeof AxisValue>;

/** One axis: a list of values, a linear range or a log range (grid: `steps` points; random/TPE: continuous unless `int`). */
export const SweepAxis = z.union([
  z.object({ path: AxisPath, values: z.array(AxisValue).min(1).max(64) }).strict(),
  z.object({ path: AxisPath, range: z.tuple([z.number(), z.number()]), steps: z.number().int().min(2).max(64).optional(), int: z.boolean().optional() }).strict(),
  z.object({ path: AxisPath, logRange: z.tuple([z.number().positive(), z.number().positive()]), steps: z.number().int().min(2).max(64).optional(), int: z.boolean().optional() }).strict(),
]);
export type SweepAxis = z.infer<typeof SweepAxis>;

export const SWEEP_METHODS = ['grid', 'random', 'tpe'] as const;

/** ASHA (asynchronous successive halving, stopping variant as Ray Tune's): at each rung (an epoch count) a trial whose validation relL2 is not within the best 1/eta of the values recorded there stops. */
export const EarlyStopping = z.object({
  kind: z.literal('asha').default('asha'),
  /** Epochs at which trials are compared; default minEpochs * eta^k below the trial's epochs. */
  rungs: z.array(z.number().int().min(1)).min(1).max(16).optional(),
  minEpochs: z.number().int().min(1).default(1),
  /** Reduction factor: the best 1/eta of a rung continue. */
  eta: z.number().int().min(2).max(16).default(2),
  /** Trials recorded at a rung before it prunes anything (earlier ones continue). */
  minTrialsPerRung: z.number().int().min(1).default(2),
}).strict();
export type EarlyStopping = z.infer<typeof EarlyStopping>;

export const SweepConfig = z.object({
  name: z.string().min(1).max(120).default('sweep'),
  /** A run configuration (TrainConfig); each trial is it with the axes' values set. */
  base: z.record(z.string(), z.unknown()),
  axes: z.array(SweepAxis).min(1).max(16),
  method: z.enum(SWEEP_METHODS).default('grid'),
  /** Seeds the sampler (random, TPE), not the runs. */
  samplerSeed: z.number().int().min(0).default(0),
  /** Runs per configuration: seeds base.seed, base.seed + 1, ... */
  seeds: z.number().int().min(1).max(20).default(1),
  budget: z.object({
    /** Trials (runs) at most; a configuration starts only when all its seeds fit. */
    maxTrials: z.number().int().min(1).max(10_000).optional(),
    /** Wall seconds of the sweep (summed over sessions): no trial starts after it. */
    maxWallSeconds: z.number().positive().optional(),
  }).strict().prefault({}),
  earlyStopping: EarlyStopping.optional(),
  /**
   * A preset's own seed groups (the Ablation view's '<key>/<variant>'): per configuration, in grid
   * order, the group and name its runs get instead of '<sweep id>-c<k>'. Grid only; all its runs are
   * created when the sweep starts, so the preset's groups are listed at once.
   */
  groups: z.array(z.object({ group: z.string().min(1).max(200), name: z.string().min(1).max(180) }).strict()).min(1).max(64).optional(),
  /** TPE (Optuna's defaults, smaller start-up): random configurations first, then 24 candidates from l(x) scored by l/g. */
  tpe: z.object({
    startupTrials: z.number().int().min(1).max(100).default(5),
    candidates: z.number().int().min(1).max(256).default(24),
  }).strict().prefault({}),
}).strict();
export type SweepConfig = z.infer<typeof SweepConfig>;
export type SweepConfigInput = z.input<typeof SweepConfig>;

/** A configuration: axis path -> value. */
export type SweepParams = Record<string, AxisValue>;

/** `cfg` with `path` set to `value` (objects along the path copied, never shared). */
export function setPath(cfg: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const out = { ...cfg };
  if (rest.length === 0) out[head!] = value;
  else {
    const inner = out[head!];
    out[head!] = setPath(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {}, rest.join('.'), value);
  }
  return out;
}

/** The run configuration of one configuration (base with the values set). */
export function applyParams(base: Record<string, unknown>, params: SweepParams): Record<string, unknown> {
  let cfg = base;
  for (const [path, v] of Object.entries(params)) cfg = setPath(cfg, path, v);
  return cfg;
}

/** Model fields any kind declares, plus the shared ones (kind, width, depth, scattering, components). */
function declaredModelFields(kinds: readonly string[]): Set<string> {
  const out = new Set(['kind', 'width', 'depth', 'scattering', 'components']);
  for (const k of kinds) {
    const d = modelKindDeclaration(k);
    for (const f of d.fields) out.add(f.field);
    for (const f of Object.keys(d.runFields)) out.add(f);
  }
  return out;
}

/** Values an axis can take at its ends (lists: all of them), to check the path and type before anything trains. */
export function probeValues(a: SweepAxis): AxisValue[] {
  if ('values' in a) return a.values;
  const [lo, hi] = 'range' in a ? a.range : a.logRange;
  return a.int ? [Math.round(lo), Math.round(hi)] : [lo, hi];
}

/** Throws unless each axis's values make a valid run configuration (names the file and the axis). */
function checkAxes(sweep: SweepConfig, source: string): void {
  const kindAxis = sweep.axes.find((a) => a.path === 'model.kind');
  const baseKind = String((sweep.base.model as { kind?: unknown } | undefined)?.kind ?? 'lino');
  const kinds = kindAxis && 'values' in kindAxis ? kindAxis.values.map(String) : [baseKind];
  for (const k of kinds) if (!(MODEL_KINDS as readonly string[]).includes(k)) throw new Error(`${source}: axis 'model.kind': expected one of ${MODEL_KINDS.join(', ')}, got '${k}'`);
  const modelFields = declaredModelFields(kinds);
  const seen = new Set<string>();
  sweep.axes.forEach((a, i) => {
    const where = `${source}: axes[${i}] ('${a.path}')`;
    if (seen.has(a.path)) throw new Error(`${where}: the field is swept twice; expected one axis per field`);
    seen.add(a.path);
    const [head, field] = a.path.split('.');
    if (head === 'model' && !modelFields.has(field ?? '')) throw new Error(`${where}: expected a field the model kind declares (${[...modelFields].join(', ')})`);
    if (['id', 'createdAt', 'resolvedData', 'group', 'name'].includes(head!)) throw new Error(`${where}: expected a training field; '${head}' is set by the run store or the sweep`);
    if ('range' in a || 'logRange' in a) {
      const [lo, hi] = 'range' in a ? a.range : a.logRange;
      if (!(lo < hi)) throw new Error(`${where}: expected a range [low, high] with low < high, got [${lo}, ${hi}]`);
      if (sweep.method === 'grid' && a.steps === undefined) throw new Error(`${where}: a grid needs 'steps' (grid points) on a range axis`);
    }
    for (const v of probeValues(a)) {
      const r = TrainConfig.safeParse(setPath(sweep.base, a.path, v));
      if (!r.success) throw new Error(`${where}: value ${JSON.stringify(v)} gives an invalid run configuration: ${formatZodIssues(r.error.issues)}`);
    }
  });
  checkGroups(sweep, source);
  const rungs = sweep.earlyStopping?.rungs;
  if (rungs && rungs.some((r, i) => i > 0 && r <= rungs[i - 1]!)) throw new Error(`${source}: field 'earlyStopping.rungs': expected increasing epochs, got [${rungs.join(', ')}]`);
}

/* The grid's size lives here (space.ts re-exports it): this file stays light for the contract. */
/** The values of a list axis, or a range's `steps` grid points (log ranges spaced evenly in log). */
export function axisGrid(a: SweepAxis): AxisValue[] {
  if ('values' in a) return a.values;
  const steps = a.steps ?? 2;
  const log = 'logRange' in a;
  const [lo, hi] = log ? a.logRange.map(Math.log) as [number, number] : a.range;
  const out: number[] = [];
  for (let i = 0; i < steps; i++) {
    const t = lo + ((hi - lo) * i) / (steps - 1);
    const v = log ? Math.exp(t) : t;
    out.push(a.int ? Math.round(v) : Number(v.toPrecision(12)));
  }
  return [...new Set(out)];
}

/** Grid points in all: the product of the axes' sizes. */
export function gridSize(axes: readonly SweepAxis[]): number {
  return axes.reduce((n, a) => n * axisGrid(a).length, 1);
}

/** Configurations a grid may have without budget.maxTrials (its state lists each one). */
export const MAX_GRID_CONFIGURATIONS = 100_000;

/** Refuses a grid with more than MAX_GRID_CONFIGURATIONS configurations and no budget.maxTrials, naming both. */
export function checkGridSize(sweep: SweepConfig, source: string): void {
  if (sweep.method !== 'grid' || sweep.budget.maxTrials !== undefined) return;
  const size = gridSize(sweep.axes);
  if (size > MAX_GRID_CONFIGURATIONS) {
    throw new Error(`${source}: field 'axes': the grid has ${size.toLocaleString('en-US')} configurations, more than the ${MAX_GRID_CONFIGURATIONS.toLocaleString('en-US')} allowed without field 'budget.maxTrials'; set budget.maxTrials (at most 10000) or give the axes fewer values`);
  }
}

/** A preset's groups: one per grid configuration, each group name once. */
function checkGroups(sweep: SweepConfig, source: string): void {
  const groups = sweep.groups;
  if (!groups) return;
  if (sweep.method !== 'grid') throw new Error(`${source}: field 'groups': expected method 'grid' (one group per grid configuration), got '${sweep.method}'`);
  const size = sweep.axes.reduce((n, a) => n * ('values' in a ? a.values.length : a.steps ?? 2), 1);
  if (groups.length !== size) throw new Error(`${source}: field 'groups': expected one per grid configuration (${size}), got ${groups.length}`);
  const seen = new Set<string>();
  for (const [i, g] of groups.entries()) {
    if (seen.has(g.group)) throw new Error(`${source}: field 'groups[${i}].group': expected each group once, '${g.group}' comes again`);
    seen.add(g.group);
  }
}

/** A sweep file's content, checked: the schema, the base configuration and every axis. Errors name the file and the field. */
export function parseSweepConfig(raw: unknown, source = 'sweep.json'): SweepConfig {
  const r = SweepConfig.safeParse(raw);
  if (!r.success) throw new Error(`${source}: ${formatZodIssues(r.error.issues, raw)}`);
  const base = TrainConfig.safeParse(r.data.base);
  if (!base.success) throw new Error(`${source}: field 'base': ${formatZodIssues(base.error.issues, r.data.base)}`);
  checkAxes(r.data, source);
  checkGridSize(r.data, source);
  return r.data;
}
