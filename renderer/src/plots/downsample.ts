// Downsampling of long curves for drawing only (the stored data is never touched): for each
// pixel-wide bucket of consecutive points keep the points holding the bucket's minimum and
// maximum, in their original order, plus the first and last point. A 100k-point loss curve
// drawn 1000 pixels wide keeps every spike and dip a viewer could see.

export interface Series {
  x: number[];
  y: number[];
}

/**
 * x is assumed ordered (steps, epochs); buckets split the index range evenly.
 * Non-finite y values never become a bucket's min/max; a bucket with no finite value keeps one
 * NaN point so the line shows a gap instead of bridging it.
 */
export function minMaxDownsample(x: ArrayLike<number>, y: ArrayLike<number>, buckets: number): Series {
  const n = Math.min(x.length, y.length);
  if (x.length !== y.length) throw new Error(`minMaxDownsample: x has ${x.length} points, y has ${y.length}`);
  const b = Math.max(1, Math.floor(buckets));
  if (n <= 2 * b + 2) return { x: Array.from(x), y: Array.from(y) };
  const ox: number[] = [];
  const oy: number[] = [];
  const push = (i: number) => {
    ox.push(x[i]!);
    oy.push(y[i]!);
  };
  push(0);
  let last = 0;
  for (let k = 0; k < b; k++) {
    const start = Math.max(1, Math.floor((k * n) / b));
    const end = Math.min(n - 1, Math.floor(((k + 1) * n) / b));
    if (end <= start) continue;
    let iMin = -1;
    let iMax = -1;
    for (let i = start; i < end; i++) {
      const v = y[i]!;
      if (!Number.isFinite(v)) continue;
      if (iMin < 0 || v < y[iMin]!) iMin = i;
      if (iMax < 0 || v > y[iMax]!) iMax = i;
    }
    if (iMin < 0) {
      ox.push(x[start]!);
      oy.push(Number.NaN);
      continue;
    }
    const a = Math.min(iMin, iMax);
    const c = Math.max(iMin, iMax);
    if (a > last) push(a);
    if (c > a) push(c);
    last = c;
  }
  push(n - 1);
  return { x: ox, y: oy };
}

/** Index series 0..n-1 (for curves stored as plain arrays). */
export function indexAxis(n: number, start = 0): number[] {
  return Array.from({ length: n }, (_, i) => i + start);
}
