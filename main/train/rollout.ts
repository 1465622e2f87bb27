// Autoregressive rollout (Navier-Stokes): x = [history (T_in frames), coordinates]; each model call
// predicts the next frame, the history drops its oldest frame and appends the prediction (fed back
// as it is, normalized), T_out times. Gradients flow through the whole rollout.
//
// Gradient checkpointing: with `checkpoint`, each step is one tf.customGrad node whose inputs are
// the step's input and every model variable; its forward keeps only the input, and its backward
// recomputes the step's forward under a fresh tape to get the gradients. Memory then holds one
// step's intermediates at a time instead of T_out of them, for about one extra forward per step.
import * as tf from '@tensorflow/tfjs';
import type { NeuralOperator } from '../model/types';
import { relL2PerSample } from './loss';
import { recomputed, supportsBlockCheckpointing, forwardBlockCheckpointed } from './recompute';

function stepForward(model: NeuralOperator, x: tf.Tensor, blocks: boolean): tf.Tensor {
  return blocks && supportsBlockCheckpointing(model) ? forwardBlockCheckpointed(model, x) : model.forward(x).y;
}

export interface RolloutOptions {
  tIn: number;
  tOut: number;
  checkpoint?: boolean;
  /** LiNO: also recompute each block during backward (one block's intermediates at a time). */
  checkpointBlocks?: boolean;
}

/** Rolls out `tOut` steps from x [B, ...grid, tIn + coords]; returns the predictions [B, ...grid, tOut]. */
export function rollout(model: NeuralOperator, x0: tf.Tensor, o: RolloutOptions): tf.Tensor {
  return tf.tidy(() => {
    const blocks = !!o.checkpointBlocks;
    const plain = (x: tf.Tensor) => stepForward(model, x, blocks);
    const step = o.checkpoint ? recomputed(plain, [...model.variables.values()]) : plain;
    const C = x0.shape[x0.rank - 1]!;
    const axis = x0.rank - 1;
    const coords = C > o.tIn ? tf.slice(x0, new Array(x0.rank).fill(0).map((_, i) => (i === axis ? o.tIn : 0)), x0.shape.map((s, i) => (i === axis ? C - o.tIn : s))) : null;
    let x = x0;
    const preds: tf.Tensor[] = [];
    for (let k = 0; k < o.tOut; k++) {
      const p = step(x);
      preds.push(p);
      if (k === o.tOut - 1) break;
      const hist = tf.slice(x, new Array(x.rank).fill(0).map((_, i) => (i === axis ? 1 : 0)), x.shape.map((s, i) => (i === axis ? o.tIn - 1 : s)));
      x = tf.concat(coords ? [hist, p, coords] : [hist, p], axis);
    }
    return tf.concat(preds, axis);
  });
}

/** Per-step relL2 [tOut] tensors of shape [B] (normalized fields). */
export function stepRelL2(pred: tf.Tensor, y: tf.Tensor): tf.Tensor1D[] {
  const axis = pred.rank - 1;
  const T = pred.shape[axis]!;
  return tf.tidy(() => {
    const ps = tf.split(pred, T, axis);
    const ys = tf.split(y, T, axis);
    return ps.map((p, k) => relL2PerSample(p, ys[k]!));
  });
}

/**
 * The autoregressive objective's share for a micro-batch of b samples out of a batch of B:
 * MSE(all frames) * b/B + sum_k sum_b relL2_k / B (adds up to MSE + sum_k mean_b relL2_k).
 */
export function rolloutMicroObjective(pred: tf.Tensor, y: tf.Tensor, batchSize: number): { loss: tf.Scalar; relSum: tf.Scalar } {
  return tf.tidy(() => {
    const b = pred.shape[0]!;
    const m = tf.mean(tf.square(tf.sub(pred, y)));
    const perStep = stepRelL2(pred, y);
    const relSum = tf.addN(perStep.map((r) => tf.sum(r))) as tf.Scalar;
    const loss = tf.add(tf.mul(m, b / batchSize), tf.div(relSum, batchSize)) as tf.Scalar;
    return { loss, relSum };
  });
}
