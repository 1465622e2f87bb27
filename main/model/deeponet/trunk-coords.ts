// The trunk's input: the normalized coordinate of every grid point, per axis linspace(0, 1, n) in
// "ij" (C) order, the same convention as the pipeline's coordinate channels and the reference.
export function trunkCoords(grid: readonly number[]): Float32Array {
  const n = grid.reduce((a, b) => a * b, 1);
  const d = grid.length;
  const out = new Float32Array(n * d);
  const idx = new Array<number>(d).fill(0);
  for (let p = 0; p < n; p++) {
    for (let k = 0; k < d; k++) out[p * d + k] = grid[k]! > 1 ? idx[k]! / (grid[k]! - 1) : 0;
    for (let k = d - 1; k >= 0; k--) {
      if (++idx[k]! < grid[k]!) break;
      idx[k] = 0;
    }
  }
  return out;
}
