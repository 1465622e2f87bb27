// A model's weights as a safetensors state dict (exact release names and shapes), and the
// metadata a weights file carries so it can be used on its own.
import * as tf from '../ops/tf';
import type { NeuralOperator } from '../model/types';
import { readSafetensorsFile, toFloat32, writeSafetensorsFile, type F32Entry, type SafetensorsFile } from './safetensors';

// ---- metadata: what a weights file needs to be used on its own ------------------------------

/**
 * The `__metadata__` of a checkpoint's weights file (safetensors metadata is string -> string, so
 * values are JSON text): `format: pt` (PyTorch's loaders expect it), the model's registry name and
 * configuration, and the normalizer statistics, so the file alone rebuilds the model and maps
 * physical inputs to its inputs and its outputs back (docs/model.md, "Use in PyTorch"):
 *   lino.model             registry name, e.g. "lino"
 *   lino.model_config      {"dims", "inChannels", "outChannels", "width", "depth", "scattering", "components"}
 *   lino.x_normalizer      {"mean", "std", "eps"}: x_normalized = (x - mean) / (std + eps)
 *   lino.y_normalizer      {"mean", "std", "eps"}: y = y_normalized * (std + eps) + mean
 *   lino.normalized        "true", or "false" when the run trained on unnormalized data
 *   lino.normalizer_scope  which values the statistics were taken over
 */
export function weightsMetadata(model: Pick<NeuralOperator, 'kind' | 'config'>, normalizer: unknown): Record<string, string> {
  const meta: Record<string, string> = { format: 'pt', 'lino.model': model.kind, 'lino.model_config': JSON.stringify(model.config) };
  const n = normalizer as { x?: { mean: number; std: number }; y?: { mean: number; std: number }; eps?: number; applied?: boolean; scope?: string } | null | undefined;
  if (n?.x && n.y) {
    const eps = n.eps ?? 1e-5;
    meta['lino.x_normalizer'] = JSON.stringify({ mean: n.x.mean, std: n.x.std, eps });
    meta['lino.y_normalizer'] = JSON.stringify({ mean: n.y.mean, std: n.y.std, eps });
    meta['lino.normalized'] = String(n.applied !== false);
    if (n.scope) meta['lino.normalizer_scope'] = n.scope;
  }
  return meta;
}

// ---- state dict exchange -------------------------------------------------------------------

/** The model's parameters only, keyed by state_dict name (what PyTorch's strict load_state_dict accepts). */
// Async: GPU backends cannot read synchronously in Node.
export async function stateDict(model: NeuralOperator): Promise<Map<string, F32Entry>> {
  const out = new Map<string, F32Entry>();
  for (const [k, v] of model.variables) out.set(k, { shape: v.shape, data: Float32Array.from((await v.data()) as Float32Array) });
  return out;
}

export async function saveWeights(model: NeuralOperator, path: string): Promise<void> {
  writeSafetensorsFile(path, await stateDict(model));
}

const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;

/** Every key/shape difference between a file and the model, in the model's key order. */
export function stateDictMismatches(model: NeuralOperator, file: SafetensorsFile): string[] {
  const out: string[] = [];
  for (const [k, v] of model.variables) {
    const t = file.tensors.get(k);
    if (!t) out.push(`missing key '${k}' (model expects ${fmt(v.shape)})`);
    else if (fmt(t.shape) !== fmt(v.shape)) out.push(`shape of '${k}': file has ${fmt(t.shape)}, model expects ${fmt(v.shape)}`);
  }
  for (const [k, t] of file.tensors) if (!model.variables.has(k)) out.push(`unexpected key '${k}' ${fmt(t.shape)}`);
  return out;
}

/** Loads parameters in place; rejects any key or shape mismatch, listing the first ones. */
export function loadStateDict(model: NeuralOperator, file: SafetensorsFile, source = 'weights'): void {
  const bad = stateDictMismatches(model, file);
  if (bad.length) {
    const shown = bad.slice(0, 8).map((s) => `  - ${s}`).join('\n');
    throw new Error(`${source}: ${bad.length} mismatch(es) with the configured model:\n${shown}${bad.length > 8 ? `\n  ... and ${bad.length - 8} more` : ''}`);
  }
  for (const [k, v] of model.variables) {
    const t = file.tensors.get(k)!;
    const val = tf.tensor(toFloat32(t), v.shape, 'float32');
    v.assign(val);
    val.dispose();
  }
}

export function loadWeights(model: NeuralOperator, path: string): void {
  loadStateDict(model, readSafetensorsFile(path), path);
}
