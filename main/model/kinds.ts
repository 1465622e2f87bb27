// The model kinds, light half: what the contract, the renderer and the registry share about each kind
// without loading tfjs (main/api imports this file). A kind's declaration (main/model/<kind>/kind.ts)
// gives its menu title, the Model view's number fields (label, run field, limits, hint), its
// TrainConfig.model fields and defaults, its builder config schema, and how a run's model section
// and the data make its registry config. main/model/registry.ts adds the tfjs half (create,
// estimate, ...) and checks that it registers exactly these kinds.
import { z } from 'zod';
import { linoKind } from './lino/kind';
import { fnoKind } from './fno/kind';
import { deepOnetKind } from './deeponet/kind';

/** What a run contributes to a model config besides its `model` section. */
export interface RunModelContext {
  dims: number;
  inChannels: number;
  outChannels: number;
  seed: number;
  /** The data's benchmark when known (per-benchmark defaults, e.g. FNO's modes). */
  benchmark?: string;
  /** The data's grid when known (a DeepONet's branch is as wide as the grid). */
  grid?: number[];
}

/** One number the Model view edits: a TrainConfig.model field with its label, limits and hint. */
export interface ModelFieldDescriptor {
  field: string;
  /** The field's name in labels and messages ("Width"). */
  label: string;
  /** The paper's symbol, shown after the label ("M"). */
  symbol?: string;
  min: number;
  max: number;
  hint?: string;
}

export interface ModelKindDeclaration<K extends string = string> {
  kind: K;
  /** One line for menus and logs. */
  title: string;
  /** Short name for titles ("FNO"). */
  name: string;
  /** The Model view's number fields, in order (TrainConfig.model field names). */
  fields: readonly ModelFieldDescriptor[];
  /** Field values when the kind is picked, for the data's benchmark (e.g. FNO's published sizes). */
  defaults(benchmark?: string): Record<string, number>;
  /** Field values that follow the data's benchmark when the data change (e.g. FNO's modes and width). */
  benchmarkSizing?(benchmark: string): Record<string, number>;
  /** TrainConfig.model fields only this kind reads (optional there). */
  runFields: z.ZodRawShape;
  /** Defaults of a run's model fields that differ from LiNO's (applied before parsing). */
  runDefaults: Record<string, number>;
  /** The model builder's config (model.estimate): the registry config without the seed, with `kind`. */
  builder: z.ZodObject<z.ZodRawShape>;
  /** The registry config for a run's `model` section (TrainConfig.model) and its data. */
  fromRun(model: Record<string, unknown>, ctx: RunModelContext): Record<string, unknown>;
  /** A run's model section in words (the Training view's line). */
  describe(model: Record<string, unknown>): string;
  /** Compact, for tables (the Model view's size table). */
  summary(model: Record<string, unknown>): string;
  /** Shorter still, for default run names. */
  runName(model: Record<string, unknown>): string;
}

/** The one list of kinds: the contract's kind enum and model unions are built from it. */
export const MODEL_KIND_DECLARATIONS = [linoKind, fnoKind, deepOnetKind] as const;

export type ModelKind = (typeof MODEL_KIND_DECLARATIONS)[number]['kind'];
export const MODEL_KINDS = MODEL_KIND_DECLARATIONS.map((d) => d.kind) as unknown as readonly [ModelKind, ...ModelKind[]];

/** The model builder's configuration, one member per kind. */
export const ModelConfig = z.discriminatedUnion('kind', [linoKind.builder, fnoKind.builder, deepOnetKind.builder]);

/** Every kind's own TrainConfig.model fields (all optional). */
export const RUN_MODEL_FIELDS = { ...fnoKind.runFields, ...deepOnetKind.runFields };

/** The numbers a model section may carry: the shared width and depth, and the kinds' own. */
export type ModelNumberField = 'width' | 'depth' | keyof typeof RUN_MODEL_FIELDS;

export function modelKindDeclaration(kind: string): ModelKindDeclaration {
  const d = MODEL_KIND_DECLARATIONS.find((k) => k.kind === kind);
  if (!d) throw new Error(`unknown model kind '${kind}' (declared: ${MODEL_KINDS.join(', ')})`);
  return d as ModelKindDeclaration;
}

/** A run's model section with its kind's defaults for the fields it leaves out. */
export function runModelDefaults(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const m = raw as Record<string, unknown>;
  const d = MODEL_KIND_DECLARATIONS.find((k) => k.kind === m.kind);
  if (!d) return raw;
  const out = { ...m };
  for (const [k, v] of Object.entries(d.runDefaults)) if (out[k] === undefined) out[k] = v;
  return out;
}

/** The builder config (model.estimate) of a run's model section on the given data: the kind's registry config without its seed. */
export function builderConfig(model: { kind: string } & Record<string, unknown>, ctx: Omit<RunModelContext, 'seed'>): ModelConfig {
  const { seed: _seed, ...config } = modelKindDeclaration(model.kind).fromRun(model, { ...ctx, seed: 0 });
  return { kind: model.kind, ...config } as ModelConfig;
}

export type ModelConfig = z.infer<typeof ModelConfig>;
