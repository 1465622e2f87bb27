// The gradient of one share of a batch under the training objective, in micro-batches whose terms
// add up to the whole batch's (loss.ts, rollout.ts). Shared by the Trainer (its own share, or the
// whole batch) and the data-parallel workers (theirs), so every path runs the same maths.
import * as tf from '@tensorflow/tfjs';
import type { NeuralOperator } from '../model/types';
import { microObjective } from './loss';
import { rollout, rolloutMicroObjective } from './rollout';
import { forwardBlockCheckpointed, supportsBlockCheckpointing } from './recompute';

export interface GradOptions {
  /** Autoregressive spec, or null for an operator task. */
  ar: { tIn: number; tOut: number } | null;
  microBatch: number;
  checkpointBlocks: boolean;
  /** Rollout gradient checkpointing (config.rollout.checkpointing). */
  rolloutCheckpointing: boolean;
}

export interface ShareGrads {
  /** Keyed by state_dict name; the caller disposes. */
  grads: Map<string, tf.Tensor>;
  /** This share's part of the batch objective (shares add up to the batch loss). */
  loss: number;
  /** Sum of per-sample relL2 over the share (autoregressive: summed over steps). */
  relSum: number;
}

export function predictTrain(model: NeuralOperator, x: tf.Tensor, o: GradOptions): tf.Tensor {
  if (o.ar) return rollout(model, x, { ...o.ar, checkpoint: o.rolloutCheckpointing, checkpointBlocks: o.checkpointBlocks });
  return o.checkpointBlocks && supportsBlockCheckpointing(model) ? forwardBlockCheckpointed(model, x) : model.forward(x).y;
}

/**
 * Gradients of the share's terms of the objective of a batch of `batchSize` samples; the share has
 * `n` samples and `tensors(i, k)` gives rows i..i+k of it as tensors (disposed here).
 */
export function shareGradients(model: NeuralOperator, n: number, batchSize: number, tensors: (i: number, k: number) => { x: tf.Tensor; y: tf.Tensor }, o: GradOptions): ShareGrads {
  const vars = [...model.variables.values()];
  const varNames = new Map([...model.variables].map(([k, v]) => [v.name, k]));
  let acc: Map<string, tf.Tensor> | null = null;
  let loss = 0;
  let relSum = 0;
  for (let i = 0; i < n; i += o.microBatch) {
    const { x, y } = tensors(i, Math.min(o.microBatch, n - i));
    let relT: tf.Scalar | null = null;
    const { value, grads } = tf.variableGrads(() => {
      const pred = predictTrain(model, x, o);
      const obj = o.ar ? rolloutMicroObjective(pred, y, batchSize) : microObjective(pred, y, batchSize);
      relT = tf.keep(obj.relSum);
      return obj.loss;
    }, vars);
    x.dispose();
    y.dispose();
    loss += value.dataSync()[0]!;
    relSum += relT!.dataSync()[0]!;
    value.dispose();
    relT!.dispose();
    if (!acc) {
      acc = new Map();
      for (const [name, g] of Object.entries(grads)) acc.set(varNames.get(name)!, g);
    } else {
      for (const [name, g] of Object.entries(grads)) {
        const k = varNames.get(name)!;
        const prev = acc.get(k)!;
        acc.set(k, tf.add(prev, g));
        prev.dispose();
        g.dispose();
      }
    }
  }
  return { grads: acc ?? new Map(), loss, relSum };
}
