// Parameter importance as W&B's sweep panel computes it: per parameter, the Pearson correlation
// with the metric, and the feature importance of a random forest regressing the metric on all the
// parameters (ml-random-forest: impurity decrease per split, averaged over the trees, summing to 1).
// Parameters are encoded as numbers (log10 for log axes, the value's index for lists; a list of
// more than two unordered values gets no correlation, as a sign would mean nothing).
import { RandomForestRegression } from 'ml-random-forest';

export interface ImportanceRow {
  path: string;
  /** Pearson correlation of the encoded parameter with the metric; null when it is constant or unordered. */
  correlation: number | null;
  /** Random-forest importance in [0, 1]; the rows sum to 1 (null with fewer than 4 trials). */
  importance: number | null;
}

export function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 2) return null;
  const mx = x.reduce((a, b) => a + b, 0) / n, my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/**
 * `columns[j][i]`: parameter j of trial i (encoded); `metric[i]`: its metric; `ordered[j]`: whether a
 * correlation means something for column j. Seeded forest: the same trials give the same numbers.
 */
export function parameterImportance(paths: readonly string[], columns: readonly number[][], metric: readonly number[], ordered: readonly boolean[], seed = 42): ImportanceRow[] {
  const keep = metric.map((m, i) => (Number.isFinite(m) && columns.every((c) => Number.isFinite(c[i]!)) ? i : -1)).filter((i) => i >= 0);
  const y = keep.map((i) => metric[i]!);
  const cols = columns.map((c) => keep.map((i) => c[i]!));
  let imp: number[] | null = null;
  if (keep.length >= 4 && cols.some((c) => c.some((v) => v !== c[0]))) {
    const X = keep.map((_, r) => cols.map((c) => c[r]!));
    const rf = new RandomForestRegression({ seed, nEstimators: 100, maxFeatures: cols.length, replacement: false, useSampleBagging: true, noOOB: true, treeOptions: { minNumSamples: 2 } });
    rf.train(X, y);
    // featureImportance is in the library (2.1), not in its type declarations
    imp = (rf as unknown as { featureImportance(): number[] }).featureImportance().map((v: number) => (Number.isFinite(v) ? v : 0));
    // no tree split (too few trials or no gain): no importance rather than zeros
    if (imp.every((v) => v === 0)) imp = null;
  }
  return paths.map((path, j) => ({
    path,
    correlation: ordered[j] ? pearson(cols[j]!, y) : null,
    importance: imp ? imp[j]! : null,
  }));
}
