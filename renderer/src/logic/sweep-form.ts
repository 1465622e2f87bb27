// The Sweeps view's form, as pure logic: its state, the fields a model kind can sweep, the form as a
// sweep.json (main/sweep/sweep-config.ts SweepConfig, checked again by the engine), honest trial
// counts for the list and the detail, and the run "Train the best fully" starts. No React here.
import { BACKEND_CHOICES, backendConfig, type BackendChoice } from './backend-choice';
import { modelKindDeclaration, MODEL_KINDS, type SWEEP_METHODS, type SweepConfigInput, type SweepAxis, type AxisValue } from '../../../main/api/contract';

export type AxisMode = 'list' | 'range' | 'log';
export interface FormAxis { path: string; mode: AxisMode; values: string; low: string; high: string; steps: string; int: boolean }
export interface SweepForm {
  name: string;
  /** A workspace dataset's id, or '' for the small synthetic data (a try-out). */
  dataset: string;
  kind: string;
  epochs: string;
  batchSize: string;
  axes: FormAxis[];
  method: (typeof SWEEP_METHODS)[number];
  seeds: string;
  samplerSeed: string;
  maxTrials: string;
  maxWallSeconds: string;
  earlyStopping: boolean;
  minEpochs: string;
  eta: string;
  /** Where the trials train (the Training view's choices); absent in forms saved before it existed: the engine. */
  backend?: BackendChoice;
}

/** A field an axis can sweep: its path in the run configuration, a label, and its limits (an integer when `int`). */
export interface SweepableField { path: string; label: string; min: number; max: number; int: boolean; log: boolean }

/** The training fields every kind has, then the kind's own model fields (main/model/<kind>/kind.ts). */
export function sweepableFields(kind: string): SweepableField[] {
  const d = modelKindDeclaration(kind);
  return [
    { path: 'optimizer.lr', label: 'learning rate', min: 1e-7, max: 1, int: false, log: true },
    { path: 'optimizer.weightDecay', label: 'weight decay', min: 0, max: 1, int: false, log: false },
    { path: 'batchSize', label: 'batch size', min: 1, max: 4096, int: true, log: false },
    ...d.fields.map((f) => ({ path: `model.${f.field}`, label: `${f.label}${f.symbol ? ` (${f.symbol})` : ''}`, min: f.min, max: f.max, int: true, log: false })),
  ];
}

export function defaultAxis(field: SweepableField): FormAxis {
  return field.log
    ? { path: field.path, mode: 'log', values: '', low: '0.0001', high: '0.01', steps: '3', int: false }
    : { path: field.path, mode: 'list', values: field.int ? `${field.min}, ${Math.min(field.max, field.min * 2)}` : '', low: String(field.min), high: String(field.max), steps: '2', int: field.int };
}

export function defaultSweepForm(): SweepForm {
  return {
    name: 'sweep', dataset: '', kind: 'lino', epochs: '2', batchSize: '4',
    axes: [{ path: 'model.width', mode: 'list', values: '4, 8', low: '4', high: '8', steps: '2', int: true }, { path: 'optimizer.lr', mode: 'list', values: '0.001, 0.01', low: '0.001', high: '0.01', steps: '2', int: false }],
    method: 'grid', seeds: '2', samplerSeed: '0', maxTrials: '', maxWallSeconds: '', earlyStopping: false, minEpochs: '1', eta: '2', backend: 'engine',
  };
}

/** The small synthetic data the form uses when no workspace dataset is picked. */
export const TRY_OUT_DATA = { kind: 'synthetic', grid: [16], train: 8, val: 2 } as const;

const fail = (field: string, expected: string, got: string): never => {
  throw new Error(`sweep form: field '${field}': expected ${expected}, got '${got}'`);
};

function int(text: string, field: string, min: number, max: number): number {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(v) || v < min || v > max) fail(field, `a whole number from ${min} to ${max}`, text);
  return v;
}

function num(text: string, field: string): number {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(v)) fail(field, 'a number', text);
  return v;
}

function listValues(a: FormAxis, field: string): AxisValue[] {
  const parts = a.values.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) fail(field, 'one value or more, separated by commas', a.values);
  return parts.map((p) => (p === 'true' ? true : p === 'false' ? false : Number.isFinite(Number(p)) ? Number(p) : p));
}

function toAxis(a: FormAxis, i: number, grid: boolean): SweepAxis {
  const field = `axes[${i}] (${a.path})`;
  if (a.mode === 'list') return { path: a.path, values: listValues(a, `${field}.values`) };
  const range: [number, number] = [num(a.low, `${field}.low`), num(a.high, `${field}.high`)];
  if (!(range[0] < range[1])) fail(`${field}.high`, `more than the low end ${range[0]}`, a.high);
  if (a.mode === 'log' && range[0] <= 0) fail(`${field}.low`, 'a positive number (a log range)', a.low);
  const steps = a.steps.trim() === '' && !grid ? {} : { steps: int(a.steps, `${field}.steps`, 2, 64) };
  return { path: a.path, ...(a.mode === 'log' ? { logRange: range } : { range }), ...steps, ...(a.int ? { int: true } : {}) } as SweepAxis;
}

/** The form as a sweep.json; throws naming the field and what was expected. */
export function formToConfig(f: SweepForm): SweepConfigInput {
  if (!(MODEL_KINDS as readonly string[]).includes(f.kind)) fail('kind', `one of ${MODEL_KINDS.join(', ')}`, f.kind);
  if (f.name.trim() === '') fail('name', 'a name', f.name);
  if (f.axes.length === 0) fail('axes', 'one axis or more', '');
  const seen = new Set<string>();
  for (const a of f.axes) {
    if (seen.has(a.path)) fail('axes', 'each field once', a.path);
    seen.add(a.path);
  }
  const grid = f.method === 'grid';
  const maxTrials = f.maxTrials.trim() === '' ? undefined : int(f.maxTrials, 'budget.maxTrials', 1, 10_000);
  const maxWallSeconds = f.maxWallSeconds.trim() === '' ? undefined : num(f.maxWallSeconds, 'budget.maxWallSeconds');
  if (!grid && maxTrials === undefined && maxWallSeconds === undefined) fail('budget', `a trial or wall-time budget for a ${f.method} sweep (it draws without end)`, '');
  const backend = f.backend ?? 'engine';
  if (!(BACKEND_CHOICES as readonly string[]).includes(backend)) fail('backend', `one of ${BACKEND_CHOICES.join(', ')}`, String(backend));
  return {
    name: f.name.trim(),
    base: {
      data: f.dataset ? { kind: 'dataset', id: f.dataset } : { ...TRY_OUT_DATA, grid: [...TRY_OUT_DATA.grid] },
      model: { kind: f.kind },
      epochs: int(f.epochs, 'epochs', 1, 100_000),
      batchSize: int(f.batchSize, 'batchSize', 1, 4096),
      ...backendConfig(backend),
    },
    axes: f.axes.map((a, i) => toAxis(a, i, grid)),
    method: f.method,
    ...(grid ? {} : { samplerSeed: int(f.samplerSeed, 'samplerSeed', 0, 2 ** 31) }),
    seeds: int(f.seeds, 'seeds', 1, 20),
    budget: { ...(maxTrials !== undefined ? { maxTrials } : {}), ...(maxWallSeconds !== undefined ? { maxWallSeconds } : {}) },
    ...(f.earlyStopping ? { earlyStopping: { kind: 'asha' as const, minEpochs: int(f.minEpochs, 'earlyStopping.minEpochs', 1, 100_000), eta: int(f.eta, 'earlyStopping.eta', 2, 16) } } : {}),
  };
}

/** "3 of 8 trials" (a grid's planned total), "3 of at most 20 trials" (a bound) or "3 trials" (neither). */
export function trialCount(s: { ended: number; planned: number | null; atMost: number | null }, what = 'trials'): string {
  if (s.planned !== null) return `${s.ended} of ${s.planned} ${what}`;
  if (s.atMost !== null) return `${s.ended} of at most ${s.atMost} ${what}`;
  return `${s.ended} ${what}`;
}

/** What "Train the best configuration fully" asks: epochs, seeds (new ones by default) and a name. */
export interface TrainBestForm { epochs: string; seeds: string; firstSeed: string; name: string }

/** Defaults: the sweep's epochs, as many seeds, starting after the seeds the trials used. */
export function trainBestDefaults(config: Record<string, unknown>, sweepName: string, bestConfig: number): TrainBestForm {
  const base = (config.base ?? {}) as Record<string, unknown>;
  const seeds = typeof config.seeds === 'number' ? config.seeds : 1;
  const seed = typeof base.seed === 'number' ? base.seed : 42;
  const epochs = typeof base.epochs === 'number' ? base.epochs : 500;
  return { epochs: String(epochs), seeds: String(seeds), firstSeed: String(seed + seeds), name: `${sweepName} best (c${bestConfig})` };
}

function setPath(cfg: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const inner = cfg[head!];
  return { ...cfg, [head!]: rest.length === 0 ? value : setPath(inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {}, rest.join('.'), value) };
}

/** train.start's parameters for the best configuration with the form's epochs, seeds and name; throws naming the field. */
export function trainBestRequest(base: Record<string, unknown>, params: Record<string, unknown>, f: TrainBestForm): { config: Record<string, unknown>; seeds: number } {
  let cfg = { ...base };
  for (const [path, v] of Object.entries(params)) cfg = setPath(cfg, path, v);
  if (f.name.trim() === '') fail('name', 'a name for the run', f.name);
  return { config: { ...cfg, epochs: int(f.epochs, 'epochs', 1, 100_000), seed: int(f.firstSeed, 'first seed', 0, 2 ** 31), name: f.name.trim().slice(0, 180) }, seeds: int(f.seeds, 'seeds', 1, 20) };
}
