// Normalized grid coordinates p_i: per axis linspace(0, 1, n), 'ij' ordering, flattened row-major.
import * as tf from '../../ops/tf';

export function gridCoordinates(grid: readonly number[]): Float32Array {
  const N = grid.reduce((a, b) => a * b, 1);
  const d = grid.length;
  const out = new Float32Array(N * d);
  const lin = (i: number, n: number) => (n === 1 ? 0 : i / (n - 1));
  for (let flat = 0; flat < N; flat++) {
    let rem = flat;
    for (let ax = d - 1; ax >= 0; ax--) {
      const n = grid[ax]!;
      out[flat * d + ax] = lin(rem % n, n);
      rem = Math.floor(rem / n);
    }
  }
  return out;
}

/** [N, d_x] tensor of the grid's coordinates. */
export function coordinateTensor(grid: readonly number[]): tf.Tensor2D {
  return tf.tensor2d(gridCoordinates(grid), [grid.reduce((a, b) => a * b, 1), grid.length]);
}

/** Squared pairwise distances ||p_i - p_j||^2, [N, N] (full scattering's positional bias). */
export function pairwiseSquaredDistances(grid: readonly number[]): tf.Tensor2D {
  const p = gridCoordinates(grid);
  const d = grid.length;
  const N = p.length / d;
  const out = new Float32Array(N * N);
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let a = 0; a < d; a++) {
        const t = p[i * d + a]! - p[j * d + a]!;
        s += t * t;
      }
      out[i * N + j] = s;
    }
  }
  return tf.tensor2d(out, [N, N]);
}

/**
 * Appends the coordinate channels to a channels-last input [B, ...grid, C] -> [B, ...grid, C + d_x],
 * for pipelines that train with coordinates on (the operator itself takes them as ordinary inputs).
 */
export function withCoordinates(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const grid = x.shape.slice(1, -1);
    const c = tf.reshape(coordinateTensor(grid), [1, ...grid, grid.length]);
    return tf.concat([x, tf.tile(c, [x.shape[0]!, ...grid.map(() => 1), 1])], -1);
  });
}
