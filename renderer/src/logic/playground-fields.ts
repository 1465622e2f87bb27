// Pure edits of a Playground input: a round brush stroke on a 2D field, a bump added to a
// 1D field, nearest-neighbour resampling for the resolution slider, and where a relL2 falls among
// the validation samples'. Fields are stored [x index, y index] row-major (plots/traces.ts fieldZ).
import type { PlaygroundFields } from '../../../main/api/contract';

/** The field with every node within `radius` nodes of (i, j) set to `value` (2D), or a Gaussian bump added (1D). */
export function brush(f: PlaygroundFields, i: number, j: number, radius: number, value: number): PlaygroundFields {
  const c = [...f.channels[0]!];
  if (f.grid.length === 1) {
    const n = f.grid[0]!;
    for (let k = 0; k < n; k++) c[k] = c[k]! + value * Math.exp(-(((k - i) / Math.max(1, radius)) ** 2));
    return { grid: f.grid, channels: [c, ...f.channels.slice(1)] };
  }
  const [nx, ny] = f.grid as [number, number];
  const r = Math.max(0, radius);
  for (let x = Math.max(0, Math.floor(i - r)); x <= Math.min(nx - 1, Math.ceil(i + r)); x++) {
    for (let y = Math.max(0, Math.floor(j - r)); y <= Math.min(ny - 1, Math.ceil(j + r)); y++) {
      if ((x - i) ** 2 + (y - j) ** 2 <= r * r + 0.25) c[x * ny + y] = value;
    }
  }
  return { grid: f.grid, channels: [c, ...f.channels.slice(1)] };
}

/** Every channel on an n-point (1D) or n x n (2D) grid, nearest neighbour (keeps a coefficient's two values). */
export function resample(f: PlaygroundFields, n: number): PlaygroundFields {
  if (f.grid.length === 1) {
    const m = f.grid[0]!;
    return { grid: [n], channels: f.channels.map((c) => Array.from({ length: n }, (_, k) => c[Math.min(m - 1, Math.floor(((k + 0.5) * m) / n))]!)) };
  }
  const [nx, ny] = f.grid as [number, number];
  return {
    grid: [n, n],
    channels: f.channels.map((c) => {
      const out = new Array<number>(n * n);
      for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) out[x * n + y] = c[Math.min(nx - 1, Math.floor(((x + 0.5) * nx) / n)) * ny + Math.min(ny - 1, Math.floor(((y + 0.5) * ny) / n))]!;
      return out;
    }),
  };
}

/** |a - b| per node. */
export function absDiff(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  return Array.from({ length: a.length }, (_, i) => Math.abs(a[i]! - b[i]!));
}

/** How many of the validation samples' relL2 values are below `value`, and of how many. */
export function rankAmong(value: number, values: number[]): { below: number; of: number } {
  return { below: values.filter((v) => v < value).length, of: values.length };
}
