// Checkpointing as training uses it: the generic recomputed() (main/ops/tfjs-internals/recompute.ts) and block
// checkpointing, which a model offers through its registry entry (forwardCheckpointed).
import type * as tf from '../ops/tf';
import type { NeuralOperator } from '../model/types';
import { modelEntry } from '../model/registry';

export { recomputed } from '../ops/tfjs-internals/recompute';

export function supportsBlockCheckpointing(model: NeuralOperator): boolean {
  return modelEntry(model.kind).forwardCheckpointed !== undefined;
}

/** The model's forward with every block recomputed during backward (its registry entry's). */
export function forwardBlockCheckpointed(model: NeuralOperator, x: tf.Tensor): tf.Tensor {
  const f = modelEntry(model.kind).forwardCheckpointed;
  if (!f) throw new Error(`model '${model.kind}' has no block checkpointing (its registry entry gives no forwardCheckpointed)`);
  return f(model, x);
}
