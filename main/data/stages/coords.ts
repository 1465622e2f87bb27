// Coordinate channels: per spatial axis linspace(0, 1, n), "ij" ordering; never normalized.

/** Coordinates of every grid point, [prod(spatial), spatial.length], C order. */
export function gridCoords(spatial: readonly number[]): Float32Array {
  const n = spatial.reduce((a, b) => a * b, 1);
  const d = spatial.length;
  const out = new Float32Array(n * d);
  const idx = new Array(d).fill(0);
  for (let p = 0; p < n; p++) {
    for (let k = 0; k < d; k++) out[p * d + k] = spatial[k] > 1 ? idx[k] / (spatial[k] - 1) : 0;
    for (let k = d - 1; k >= 0; k--) { if (++idx[k] < spatial[k]) break; idx[k] = 0; }
  }
  return out;
}
