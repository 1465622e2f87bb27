// Autoregressive rollout (Navier-Stokes): x = [history (T_in frames), coordinates]; each model call
// predicts the next frame, the history drops its oldest frame and appends the prediction (fed back
// as it is, normalized), T_out times. Gradients flow through the whole rollout.
//
// Gradient checkpointing: with `checkpoint`, each step is one tf.customGrad node whose inputs are
// the step's input and every model variable; its forward keeps only the input, and its backward
// recomputes the step's forward under a fresh tape to get the gradients. Memory then holds one
// step's intermediates at a time instead of T_out of them, for about one extra forward per step.
import * as tf from '../ops/tf';
import type { BlockDiagnostics, NeuralOperator } from '../model/types';
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

/** The coordinate channels of x0 (after the tIn history frames), or null when there are none. */
function coordsOf(x0: tf.Tensor, tIn: number): tf.Tensor | null {
  const C = x0.shape[x0.rank - 1]!;
  const axis = x0.rank - 1;
  return C > tIn ? tf.slice(x0, new Array(x0.rank).fill(0).map((_, i) => (i === axis ? tIn : 0)), x0.shape.map((s, i) => (i === axis ? C - tIn : s))) : null;
}

/** The next step's input: the history without its oldest frame, the prediction, the coordinates. */
function advance(x: tf.Tensor, p: tf.Tensor, coords: tf.Tensor | null, tIn: number): tf.Tensor {
  const axis = x.rank - 1;
  const hist = tf.slice(x, new Array(x.rank).fill(0).map((_, i) => (i === axis ? 1 : 0)), x.shape.map((s, i) => (i === axis ? tIn - 1 : s)));
  return tf.concat(coords ? [hist, p, coords] : [hist, p], axis);
}

/** Rolls out `tOut` steps from x [B, ...grid, tIn + coords]; returns the predictions [B, ...grid, tOut]. */
export function rollout(model: NeuralOperator, x0: tf.Tensor, o: RolloutOptions): tf.Tensor {
  return tf.tidy(() => {
    const blocks = !!o.checkpointBlocks;
    const plain = (x: tf.Tensor) => stepForward(model, x, blocks);
    const step = o.checkpoint ? recomputed(plain, [...model.variables.values()]) : plain;
    const coords = coordsOf(x0, o.tIn);
    let x = x0;
    const preds: tf.Tensor[] = [];
    for (let k = 0; k < o.tOut; k++) {
      const p = step(x);
      preds.push(p);
      if (k === o.tOut - 1) break;
      x = advance(x, p, coords, o.tIn);
    }
    return tf.concat(preds, axis(x0));
  });
}

const axis = (t: tf.Tensor) => t.rank - 1;

/**
 * Evaluation (no gradients): the same rollout with every step's block diagnostics, so gate
 * statistics cover the whole trajectory. Not tidied: call inside the caller's tf.tidy.
 */
export function rolloutWithDiagnostics(model: NeuralOperator, x0: tf.Tensor, o: { tIn: number; tOut: number }): { pred: tf.Tensor; steps: BlockDiagnostics[][] } {
  const coords = coordsOf(x0, o.tIn);
  let x = x0;
  const preds: tf.Tensor[] = [];
  const steps: BlockDiagnostics[][] = [];
  for (let k = 0; k < o.tOut; k++) {
    const f = model.forward(x, { diagnostics: true });
    preds.push(f.y);
    steps.push(f.diagnostics ?? []);
    if (k === o.tOut - 1) break;
    x = advance(x, f.y, coords, o.tIn);
  }
  return { pred: tf.concat(preds, axis(x0)), steps };
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

/** Per sample b, the mean over steps k of v[k][b] (the reported autoregressive relL2 per sample). */
export function meanOverSteps(v: ArrayLike<number>[], rows: number): Float32Array {
  const acc = new Float64Array(rows);
  for (const s of v) for (let b = 0; b < rows; b++) acc[b]! += s[b]! / v.length;
  return Float32Array.from(acc); // a tf.tidy result holds no Float64Array
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
