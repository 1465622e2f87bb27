// The gradient of one share of a batch under the training objective, in micro-batches whose terms
// add up to the whole batch's (loss.ts, rollout.ts). Shared by the Trainer (its own share, or the
// whole batch) and the data-parallel workers (theirs), so every path runs the same maths.
import * as tf from '../ops/tf';
import type { NeuralOperator } from '../model/types';
import { readValues } from '../ops/backend';
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

/** A share's gradient with its loss terms still on the backend (read once per step by the caller). */
export interface ShareGradTensors {
  grads: Map<string, tf.Tensor>;
  loss: tf.Scalar;
  relSum: tf.Scalar;
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
 * `n` samples and `tensors(i, k)` gives rows i..i+k of it as tensors (disposed here). Nothing is
 * read back: the loss and relL2 sums stay tensors (the caller disposes them with the grads).
 */
export function shareGradientTensors(model: NeuralOperator, n: number, batchSize: number, tensors: (i: number, k: number) => { x: tf.Tensor; y: tf.Tensor }, o: GradOptions): ShareGradTensors {
  const vars = [...model.variables.values()];
  const varNames = new Map([...model.variables].map(([k, v]) => [v.name, k]));
  let acc: Map<string, tf.Tensor> | null = null;
  let loss: tf.Scalar | null = null;
  let relSum: tf.Scalar | null = null;
  const add = (prev: tf.Scalar | null, t: tf.Scalar): tf.Scalar => {
    if (!prev) return t;
    const s = tf.add(prev, t) as tf.Scalar;
    tf.dispose([prev, t]);
    return s;
  };
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
    loss = add(loss, value);
    relSum = add(relSum, relT!);
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
  return { grads: acc ?? new Map(), loss: loss ?? tf.scalar(0), relSum: relSum ?? tf.scalar(0) };
}

/** shareGradientTensors with the loss terms read (one read): for data-parallel shares. */
export async function shareGradients(model: NeuralOperator, n: number, batchSize: number, tensors: (i: number, k: number) => { x: tf.Tensor; y: tf.Tensor }, o: GradOptions): Promise<ShareGrads> {
  const r = shareGradientTensors(model, n, batchSize, tensors, o);
  const both = tf.stack([r.loss, r.relSum]);
  tf.dispose([r.loss, r.relSum]);
  try {
    const [loss, relSum] = await readValues(both);
    return { grads: r.grads, loss: loss!, relSum: relSum! };
  } catch (e) {
    tf.dispose([...r.grads.values()]);
    throw e;
  } finally {
    both.dispose();
  }
}
