// The model builder's configuration as the user edits it, and its validation. Pure (no React,
// no API), so the Training view can reuse it and node:test can check it.
import { MODEL_KIND_DECLARATIONS, builderConfig, modelKindDeclaration, type ModelConfig, type ModelKind, type ModelNumberField } from '../../../main/api/contract';

export type ComponentName = 'reflection' | 'refraction' | 'scattering';
export const COMPONENT_NAMES: ComponentName[] = ['reflection', 'refraction', 'scattering'];

/** The kinds the Model view offers: the engine's declared kinds (main/model/kinds.ts). */
export const MODEL_KIND_OPTIONS: { kind: ModelKind; label: string }[] = MODEL_KIND_DECLARATIONS.map((d) => ({ kind: d.kind, label: d.title }));

export type ModelDraft = {
  kind: ModelKind;
  dims: 1 | 2;
  /** Data channels of the input field(s), before coordinates are appended. */
  inChannels: number;
  outChannels: number;
  /** LiNO's block configuration. */
  scattering: 'efficient' | 'full';
  components: Record<ComponentName, boolean>;
  /** Append normalised grid coordinates to the inputs (one channel per axis). */
  coordinates: boolean;
  /** Grid points per axis (square grids in 2D). */
  gridSide: number;
  batch: number;
} & Record<ModelNumberField, number>;
// ^ every kind's numbers (width, depth, FNO's modes, DeepONet's basis): each kind's fields are
// declared with their limits in main/model/<kind>/kind.ts; a draft keeps them all, so switching
// kinds back and forth keeps what was typed.

/**
 * Darcy-like defaults, smaller than the paper's (width 128, depth 8) so that a training step fits
 * the wasm backend's 4 GiB and a CPU trains it in minutes.
 */
export const DEFAULT_DRAFT: ModelDraft = {
  kind: 'lino',
  dims: 2,
  inChannels: 1,
  outChannels: 1,
  width: 32,
  depth: 4,
  scattering: 'efficient',
  components: { reflection: true, refraction: true, scattering: true },
  modes: 12,
  basis: 128,
  coordinates: true,
  gridSide: 64,
  batch: 4,
};

/** The draft's own fields (the kinds' fields carry their limits in their declarations). */
export const LIMITS = {
  inChannels: [1, 64],
  outChannels: [1, 64],
  gridSide: [2, 65536],
  batch: [1, 4096],
} as const satisfies Record<string, readonly [number, number]>;

export type DraftErrors = Partial<Record<keyof ModelDraft, string>>;

const LABELS: Record<keyof typeof LIMITS, string> = {
  inChannels: 'Input channels',
  outChannels: 'Output channels',
  gridSide: 'Grid points per axis',
  batch: 'Batch size',
};

function checkWhole(errors: DraftErrors, key: keyof ModelDraft, label: string, v: unknown, lo: number, hi: number): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) errors[key] = `${label} must be a whole number from ${lo} to ${hi}`;
}

/** Field-by-field messages, empty when the draft is valid. */
export function validateDraft(d: ModelDraft): DraftErrors {
  const errors: DraftErrors = {};
  for (const key of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) checkWhole(errors, key, LABELS[key], d[key], LIMITS[key][0], LIMITS[key][1]);
  for (const f of modelKindDeclaration(d.kind).fields) checkWhole(errors, f.field as ModelNumberField, f.label, d[f.field as ModelNumberField], f.min, f.max);
  if (d.kind === 'lino' && !COMPONENT_NAMES.some((c) => d.components[c])) errors.components = 'Turn on at least one of reflection, refraction and scattering';
  return errors;
}

/** Turning a component off is refused when it is the last one on. */
export function toggleComponent(d: ModelDraft, c: ComponentName): ModelDraft {
  const next = { ...d.components, [c]: !d.components[c] };
  if (!COMPONENT_NAMES.some((k) => next[k])) return d;
  return { ...d, components: next };
}

export function enabledComponents(d: ModelDraft): ComponentName[] {
  return COMPONENT_NAMES.filter((c) => d.components[c]);
}

/** A run's `model` section (TrainConfig.model): the kind, its declared numbers and LiNO's block choices. */
export type DraftTrainModel = { kind: ModelKind; scattering: 'efficient' | 'full'; components: ComponentName[] } & Partial<Record<ModelNumberField, number>>;

/** The `model` block of a run's TrainConfig (main/api/contract.ts) for this draft; the data spec supplies channels and grid. */
export function draftToTrainModel(d: ModelDraft): DraftTrainModel {
  const numbers = Object.fromEntries(modelKindDeclaration(d.kind).fields.map((f) => [f.field, d[f.field as ModelNumberField]]));
  return { kind: d.kind, ...numbers, scattering: d.scattering, components: enabledComponents(d) };
}

/**
 * What stops the draft from training, in the Model view's words ("Width (M) must be a whole number
 * from 1 to 4096"): the checks of the fields a run's model section takes (the kind's numbers and
 * LiNO's components), not the Model view's estimate-only fields (grid, batch, channels). Empty: it trains.
 */
export function trainModelProblems(d: ModelDraft): string[] {
  const errors = validateDraft(d);
  const keys = new Set<string>([...modelKindDeclaration(d.kind).fields.map((f) => f.field), 'components']);
  return Object.entries(errors).flatMap(([k, v]) => (keys.has(k) && v ? [v] : []));
}

/** The contract's ModelConfig (data channels only; coordinates travel as their own flag): the kind's own mapping from a run's model section. */
export function draftToConfig(d: ModelDraft): ModelConfig {
  return builderConfig(draftToTrainModel(d), { dims: d.dims, inChannels: d.inChannels, outChannels: d.outChannels, grid: draftGrid(d) });
}

/** The draft's model in words (the Training view), and compact (tables, run names). */
export function describeDraft(d: ModelDraft, form: 'describe' | 'summary' | 'runName' = 'describe'): string {
  return modelKindDeclaration(d.kind)[form](draftToTrainModel(d));
}

export function draftGrid(d: ModelDraft): number[] {
  return d.dims === 1 ? [d.gridSide] : [d.gridSide, d.gridSide];
}

/** 1536 -> "1.5 KiB"; binary units, as memory limits are. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

/** 1.2e9 -> "1.20 GFLOP". */
export function formatFlops(n: number): string {
  const units = ['', 'k', 'M', 'G', 'T', 'P'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 2)} ${units[i]}FLOP`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The data a model is sized for. Channels come from the data (a run takes them from its dataset),
 * so the builder derives them from this choice instead of letting them be typed. `grid`: points
 * per axis a model of it is usually trained on: Darcy at 85 and Navier–Stokes at 64 (the quick
 * presets, main/data/generate/presets.ts), Burgers at 1024 (the FNO paper's table), the airfoil's
 * 221 × 51 C-grid as the square of about as many points.
 */
export const DATA_SHAPES = [
  { key: 'burgers', label: 'Burgers (1D): a → u', dims: 1, inChannels: 1, outChannels: 1, grid: 1024 },
  { key: 'darcy', label: 'Darcy (2D): coefficient → solution', dims: 2, inChannels: 1, outChannels: 1, grid: 85 },
  { key: 'navier-stokes', label: 'Navier–Stokes (2D): 10 vorticity frames → the next', dims: 2, inChannels: 10, outChannels: 1, grid: 64 },
  { key: 'airfoil', label: 'Airfoil (2D mesh): X, Y → Mach', dims: 2, inChannels: 2, outChannels: 1, grid: 106 },
] as const;
export type DataShapeKey = (typeof DATA_SHAPES)[number]['key'];

/** The data choice a draft corresponds to (its dims and channels), else the first of its dims. */
export function draftDataShape(d: Pick<ModelDraft, 'dims' | 'inChannels' | 'outChannels'>): (typeof DATA_SHAPES)[number] {
  return DATA_SHAPES.find((s) => s.dims === d.dims && s.inChannels === d.inChannels && s.outChannels === d.outChannels) ?? DATA_SHAPES.find((s) => s.dims === d.dims)!;
}

/** The draft sized for `key`'s data: dims and channels from it, its usual grid, the kind's per-benchmark sizes. */
export function withDataShape(d: ModelDraft, key: DataShapeKey): ModelDraft {
  const s = DATA_SHAPES.find((x) => x.key === key)!;
  const sizing = modelKindDeclaration(d.kind).benchmarkSizing?.(key) ?? {};
  return { ...d, ...sizing, dims: s.dims, inChannels: s.inChannels, outChannels: s.outChannels, gridSide: s.grid };
}

/** Points per axis of a stored grid as the builder's square grid: the side itself, or a non-square grid's point count as a square. */
export function gridSideOf(grid: readonly number[]): number {
  if (grid.length === 1 || grid.every((n) => n === grid[0])) return grid[0]!;
  return Math.round(Math.sqrt(grid.reduce((a, b) => a * b, 1)));
}

/**
 * The draft sized for a workspace dataset: its benchmark's shape and the kind's sizes, at the
 * dataset's own resolution (a Darcy set generated at 29 gives a 29 × 29 grid). Null when the
 * dataset's benchmark is not one the builder knows or it lists no grid.
 */
export function withDataset(d: ModelDraft, ds: { benchmark?: string; grid?: number[] }): ModelDraft | null {
  const s = DATA_SHAPES.find((x) => x.key === ds.benchmark);
  if (!s || !ds.grid?.length) return null;
  return { ...withDataShape(d, s.key), gridSide: gridSideOf(ds.grid) };
}

/** The draft as another kind, with that kind's sizes for the data (e.g. FNO's published ones). */
export function withKind(d: ModelDraft, kind: ModelKind): ModelDraft {
  if (kind === d.kind) return d;
  return { ...d, kind, ...modelKindDeclaration(kind).defaults(draftDataShape(d).key) };
}

/** The estimate's provenance for people: without the engine's source file path. */
export function estimateNote(source: string): string {
  const text = source.replace(/\S+\.(ts|js|mjs|tsx)\b/g, '').replace(/^\s*\(\s*/, '').replace(/\s*\)\s*$/, '').replace(/\s+/g, ' ').trim();
  return text ? text[0]!.toUpperCase() + text.slice(1) : '';
}

/**
 * A saved draft (ui-state.json, untrusted) read back over the defaults: each field of the right
 * type is kept, anything else falls back to its default; null when it is not a draft at all. An
 * out-of-range number is kept (the form shows its message) so nothing the user typed is lost.
 */
export function restoreDraft(v: unknown): ModelDraft | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = { ...DEFAULT_DRAFT, components: { ...DEFAULT_DRAFT.components } };
  for (const [k, def] of Object.entries(DEFAULT_DRAFT)) {
    const got = o[k];
    if (typeof def === 'number' && typeof got === 'number' && Number.isFinite(got)) out[k] = got;
    else if (typeof def === 'boolean' && typeof got === 'boolean') out[k] = got;
  }
  if (MODEL_KIND_OPTIONS.some((x) => x.kind === o.kind)) out.kind = o.kind;
  if (o.dims === 1 || o.dims === 2) out.dims = o.dims;
  if (o.scattering === 'efficient' || o.scattering === 'full') out.scattering = o.scattering;
  const c = o.components as Record<string, unknown> | undefined;
  if (c && typeof c === 'object') for (const n of COMPONENT_NAMES) if (typeof c[n] === 'boolean') (out.components as Record<string, boolean>)[n] = c[n] as boolean;
  return out as ModelDraft;
}
