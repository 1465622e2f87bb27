// Named colour-blind-safe scales: viridis and cividis (perceptually uniform, readable in
// greyscale) for fields, RdBu (diverging, blue negative / red positive) for signed errors.
export type ColorScaleName = 'viridis' | 'cividis' | 'RdBu';
export type ColorScale = [number, string][];

const stops = (colors: string[]): ColorScale => colors.map((c, i) => [i / (colors.length - 1), c]);

export const COLOR_SCALES: Record<ColorScaleName, ColorScale> = {
  viridis: stops(['#440154', '#482475', '#414487', '#355f8d', '#2a788e', '#21918c', '#22a884', '#44bf70', '#7ad151', '#bddf26', '#fde725']),
  cividis: stops(['#00224e', '#123570', '#3b496c', '#575d6d', '#707173', '#8a8779', '#a69d75', '#c4b56c', '#e4cf5b', '#fee838']),
  // ColorBrewer RdBu, ordered low -> high so that negative errors are blue and positive red.
  RdBu: stops(['#053061', '#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7', '#fddbc7', '#f4a582', '#d6604d', '#b2182b', '#67001f']),
};

/** Scales meant for unsigned fields (inputs, references, predictions, |error|). */
export const FIELD_SCALES: ColorScaleName[] = ['viridis', 'cividis'];

export function colorScale(name: ColorScaleName): ColorScale {
  const s = COLOR_SCALES[name];
  if (!s) throw new Error(`unknown colour scale '${name}' (known: ${Object.keys(COLOR_SCALES).join(', ')})`);
  return s;
}

/** Finite min/max of one or more fields, so side-by-side panels share one colour range. */
export function sharedRange(...fields: ArrayLike<number>[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const f of fields) {
    for (let i = 0; i < f.length; i++) {
      const v = f[i]!;
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo === Infinity) return [0, 1];
  if (lo === hi) return [lo - 0.5, hi + 0.5];
  return [lo, hi];
}

/** Symmetric range around zero for a diverging scale (signed errors): white means no error. */
export function symmetricRange(...fields: ArrayLike<number>[]): [number, number] {
  const [lo, hi] = sharedRange(...fields);
  const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
  return [-m, m];
}
