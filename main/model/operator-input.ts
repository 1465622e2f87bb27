// What every operator checks and counts the same way: its channels-last input's batch, grid and
// point count (or an error naming the shape it expected), and its parameters.
import type * as tf from '../ops/tf';

export interface GridInput {
  B: number;
  grid: number[];
  /** Points of the grid (the product of its axes). */
  N: number;
}

/**
 * x must be [B, N, C_in] (dims 1) or [B, H, W, C_in] (dims 2). `gridText` names the grid in the
 * message when the model is built for one (e.g. DeepONet's '64, 64'); otherwise N or H, W.
 */
export function gridInput(kind: string, x: tf.Tensor, dims: number, inChannels: number, gridText?: string): GridInput {
  if (x.rank !== dims + 2 || x.shape[x.rank - 1] !== inChannels) {
    const axes = gridText ?? (dims === 1 ? 'N' : 'H, W');
    throw new Error(`${kind} forward: input shape [${x.shape.join(', ')}], expected [B, ${axes}, ${inChannels}]`);
  }
  const grid = x.shape.slice(1, -1);
  return { B: x.shape[0]!, grid, N: grid.reduce((a, b) => a * b, 1) };
}

/** Scalar count of an operator's variables. */
export function countParams(variables: ReadonlyMap<string, tf.Variable>): number {
  let n = 0;
  for (const v of variables.values()) n += v.size;
  return n;
}
