// Model registry: the one place a model kind is declared. Each entry gives its config schema, how a
// run's `model` section and the data make its config, its factory, its parameter count and
// estimate (the Model view and the runner's memory preflight both use them), and optionally a
// block-checkpointed forward. Training, evaluation and the CLI build models only through here.
import type * as tf from '../ops/tf';
import type { z } from 'zod';
import type { NeuralOperator } from './types';
import { createLino } from './lino/operator';
import { linoConfigSchema, parseLinoConfig, type LinoConfig } from './lino/config';
import { estimateLino, linoParamCount, type LinoEstimate } from './lino/estimate';
import { linoForwardCheckpointed } from './lino/checkpointed';
import { MODEL_KINDS, modelKindDeclaration, type RunModelContext } from './kinds';
import { createFno } from './fno/operator';
import { fnoConfigSchema, parseFnoConfig } from './fno/config';
import { estimateFno, fnoParamCount } from './fno/estimate';
import { inferFnoConfigFromShapes } from './fno/infer-config';
import { inferLinoConfigFromShapes } from './lino/infer-config';
import { createDeepOnet } from './deeponet/operator';
import { deepOnetConfigSchema, parseDeepOnetConfig } from './deeponet/config';
import { deepOnetParamCount, estimateDeepOnet } from './deeponet/estimate';
import { inferDeepOnetConfigFromShapes } from './deeponet/infer-config';
import { errorMessage } from '../util/error-message';

export type { RunModelContext } from './kinds';

/** Parameters, FLOPs and memory of one training step (see main/model/lino/estimate.ts). */
export type ModelEstimateNumbers = LinoEstimate;

/** Fields every kind's config has: the CLI and the data checks read them. */
export interface BaseModelConfig extends Record<string, unknown> {
  dims: 1 | 2;
  inChannels: number;
  outChannels: number;
}

export interface ModelEntry {
  kind: string;
  /** One line for menus and logs. */
  title: string;
  /** The registry config (what `create` takes and model.json holds). */
  schema: z.ZodType;
  /** Validates and normalises a config; errors name the source, the field and what was expected. */
  parse(raw: unknown, source?: string): BaseModelConfig;
  /** The registry config for a run's `model` section (TrainConfig.model) and its data. */
  fromRun(model: Record<string, unknown>, ctx: RunModelContext): Record<string, unknown>;
  create(config: unknown): NeuralOperator;
  paramCount(config: unknown): number;
  /** backend: the tfjs backend of the step (wasm's figures when omitted). */
  estimate(config: unknown, grid: readonly number[], batch: number, backend?: string): ModelEstimateNumbers;
  /** Where the estimate's numbers come from (shown beside them). */
  estimateSource: string;
  /** The config read back from a state_dict's key names and shapes; throws when the keys are not this kind's. */
  inferConfig(shapes: ReadonlyMap<string, { shape: readonly number[] }>, source: string): { notes: string[] };
  /** Forward with each block recomputed during backward (block checkpointing). */
  forwardCheckpointed?(model: NeuralOperator, x: tf.Tensor): tf.Tensor;
}

const entries = new Map<string, ModelEntry>();

export function registerModel(entry: ModelEntry): void {
  if (entries.has(entry.kind)) throw new Error(`model '${entry.kind}' is already registered`);
  if (!(MODEL_KINDS as readonly string[]).includes(entry.kind)) throw new Error(`model '${entry.kind}' is not declared in main/model/kinds.ts (declared: ${MODEL_KINDS.join(', ')})`);
  entries.set(entry.kind, entry);
}

export function listModels(): string[] {
  return [...entries.keys()].sort();
}

export function modelEntry(kind: string): ModelEntry {
  const e = entries.get(kind);
  if (!e) throw new Error(`unknown model kind '${kind}' (registered: ${listModels().join(', ')})`);
  return e;
}

/**
 * A model.json as the CLI reads it: `kind` ('lino' when omitted) picks the entry, the rest is that
 * kind's config.
 */
export function parseModelFile(raw: unknown, source: string): { kind: string; config: BaseModelConfig } {
  const { kind = 'lino', ...rest } = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (typeof kind !== 'string' || !entries.has(kind)) throw new Error(`${source}: field 'kind': expected one of ${listModels().map((k) => `'${k}'`).join(', ')}, got ${JSON.stringify(kind)}`);
  return { kind, config: modelEntry(kind).parse(rest, source) };
}

/**
 * The kind and config of a weights file: its recorded kind (metadata 'lino.model', written by
 * checkpoints) when registered, else the first kind whose key names fit.
 */
export function inferModel(shapes: ReadonlyMap<string, { shape: readonly number[] }>, metadata: Record<string, string>, source: string): { kind: string; config: { notes: string[] } } {
  const recorded = metadata['lino.model'];
  if (recorded && entries.has(recorded)) return { kind: recorded, config: modelEntry(recorded).inferConfig(shapes, source) };
  const errors: string[] = [];
  for (const e of entries.values()) {
    try {
      return { kind: e.kind, config: e.inferConfig(shapes, source) };
    } catch (err) {
      errors.push(`${e.kind}: ${errorMessage(err)}`);
    }
  }
  throw new Error(`${source}: the keys fit no registered model kind (${errors.join('; ')})`);
}

export function createModel(kind: string, config: unknown): NeuralOperator {
  return modelEntry(kind).create(config);
}

registerModel({
  kind: 'lino',
  title: modelKindDeclaration('lino').title,
  schema: linoConfigSchema,
  parse: (raw, source) => parseLinoConfig(raw, source) as LinoConfig & Record<string, unknown>,
  fromRun: modelKindDeclaration('lino').fromRun,
  create: createLino,
  paramCount: linoParamCount,
  estimate: estimateLino,
  estimateSource: 'main/model/lino/estimate.ts (exact parameter count; FLOPs and memory fitted to tfjs 4.22)',
  inferConfig: inferLinoConfigFromShapes,
  forwardCheckpointed: linoForwardCheckpointed,
});

registerModel({
  kind: 'fno',
  title: modelKindDeclaration('fno').title,
  schema: fnoConfigSchema,
  parse: (raw, source) => parseFnoConfig(raw, source) as ReturnType<typeof parseFnoConfig> & Record<string, unknown>,
  fromRun: modelKindDeclaration('fno').fromRun,
  create: createFno,
  paramCount: fnoParamCount,
  estimate: (config, grid, batch) => estimateFno(config, grid, batch),
  estimateSource: 'main/model/fno/estimate.ts (exact parameter count; FLOPs of its matMuls; memory counted per layer, not fitted)',
  inferConfig: inferFnoConfigFromShapes,
});

registerModel({
  kind: 'deeponet',
  title: modelKindDeclaration('deeponet').title,
  schema: deepOnetConfigSchema,
  parse: (raw, source) => parseDeepOnetConfig(raw, source) as ReturnType<typeof parseDeepOnetConfig> & Record<string, unknown>,
  fromRun: modelKindDeclaration('deeponet').fromRun,
  create: createDeepOnet,
  paramCount: deepOnetParamCount,
  estimate: (config, grid, batch) => estimateDeepOnet(config, grid, batch),
  estimateSource: 'main/model/deeponet/estimate.ts (exact parameter count; FLOPs of its matMuls; memory counted per layer, not fitted)',
  inferConfig: inferDeepOnetConfigFromShapes,
});
