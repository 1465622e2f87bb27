// Per-channel statistics of a prepared dataset's split, in physical units (datasets.stats).
import type { DatasetStats } from './dataset-records';
import type { PreparedDataset, SplitName } from './dataset';
import { NORM_EPS } from './stages/normalize';

/** Min, max, mean and (population) std of each channel of a channels-last array, decoded to physical units. */
export function channelStats(data: Float32Array, channels: number, names: string[], decode: { scale: number; shift: number }): DatasetStats['x'] {
  return names.map((name, c) => {
    let min = Infinity, max = -Infinity, sum = 0, sumSq = 0, n = 0;
    for (let i = c; i < data.length; i += channels) {
      const v = data[i]! * decode.scale + decode.shift;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
    if (n === 0) return { name, min: null, max: null, mean: null, std: null };
    const mean = sum / n;
    // Two passes: the one-pass formula loses digits when |mean| >> std.
    for (let i = c; i < data.length; i += channels) {
      const d = data[i]! * decode.scale + decode.shift - mean;
      sumSq += d * d;
    }
    return { name, min, max, mean, std: Math.sqrt(sumSq / n) };
  });
}

export function statsOf(ds: PreparedDataset, split: SplitName): DatasetStats {
  const m = ds.manifest;
  const s = ds[split];
  const decode = (which: 'x' | 'y') =>
    m.normalization.applied ? { scale: m.normalization[which].std + NORM_EPS, shift: m.normalization[which].mean } : { scale: 1, shift: 0 };
  const cx = s.x.shape[s.x.shape.length - 1]!;
  const cy = s.y.shape[s.y.shape.length - 1]!;
  // Coordinate channels (the last ones of x) are not data: left out.
  const xNames = m.xChannels.slice(0, m.xChannels.length - (m.coordChannels ?? 0));
  return {
    id: m.id,
    split,
    count: s.x.shape[0]!,
    grid: [...m.grid],
    x: channelStats(s.x.data as Float32Array, cx, xNames, decode('x')),
    y: channelStats(s.y.data as Float32Array, cy, m.yChannels, decode('y')),
  };
}
