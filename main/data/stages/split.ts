// Train/validation/test split: a seeded shuffle (the release shuffles with seed 42 via
// torch.randperm, which JavaScript cannot reproduce) or an explicit index list, which reproduces
// an external split exactly.
import { DataError } from '../formats/errors';
import { splitmix32 } from '../generate/rng';

export interface CountSplit { train: number; val: number; test?: number; seed?: number; shuffle?: boolean }
export interface IndexSplit { indices: { train: number[]; val: number[]; test?: number[] } }
export type SplitSpec = CountSplit | IndexSplit;
export interface SplitIndices { train: number[]; val: number[]; test: number[] }
/** Counts a caller asked for; any of them may be missing. */
export interface SplitRequest { train?: number; val?: number; test?: number; seed?: number }

/**
 * The one rule for split sizes, used by every path that prepares data (run configs with generated
 * or file data, `lino data generate --workspace`, the app's generate and import): counts given are
 * kept; test defaults to 0; when train and val are both missing, the release's counts if the
 * `n - test` samples hold them, else 80 % train (at least one) and the rest validation; when only
 * one of them is given, the other is the release's (or 80/20) count capped at what is left.
 * `release` is undefined for data with no published split (custom files): 80/20.
 */
export function defaultSplit(n: number, release: { train: number; val: number } | undefined, asked: SplitRequest = {}): { train: number; val: number; test: number } {
  const test = asked.test ?? 0;
  const avail = Math.max(0, n - test);
  const fitted = release && release.train + release.val <= avail
    ? { train: release.train, val: release.val }
    : { train: Math.max(1, Math.floor(avail * 0.8)), val: avail - Math.max(1, Math.floor(avail * 0.8)) };
  const train = asked.train ?? (asked.val !== undefined ? Math.max(1, Math.min(fitted.train, avail - asked.val)) : fitted.train);
  const val = asked.val ?? (asked.train !== undefined ? Math.max(0, Math.min(fitted.val, avail - asked.train)) : Math.max(0, fitted.val));
  return { train, val, test };
}

/**
 * The test count a new dataset gets when none is asked for (every dataset made in the app
 * has a test split, so a run's final evaluation and the Runs table's Test relL2 have one): 10 %
 * (at least one sample from 3 samples up, none below: 2 samples only split into train and
 * validation), never more than what the train and validation counts asked leave.
 * The Datasets form mirrors this rule (renderer/src/logic/generate-params.ts `defaultTestCount`).
 */
export function defaultTestCount(n: number, asked: { train?: number; val?: number } = {}): number {
  const share = n >= 3 ? Math.max(1, Math.round(n * 0.1)) : 0;
  // what the counts asked leave, one training and one validation sample kept where not asked
  const left = n - (asked.train ?? 1) - (asked.val ?? 1);
  return Math.max(0, Math.min(share, left));
}

/**
 * The SplitMix32 output stream as uniforms in [0, 1) (32 bits): the split's shuffle. Kept as it is
 * (not the generators' xoshiro128**) so existing datasets keep their splits; docs/CONVENTIONS.md.
 */
export function seededRandom(seed: number): () => number {
  let s = (seed >>> 0) ^ 0x9e3779b9;
  return () => {
    const [next, out] = splitmix32(s);
    s = next;
    return out / 4294967296;
  };
}

export function seededPermutation(n: number, seed: number): number[] {
  const rnd = seededRandom(seed);
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = p[i]; p[i] = p[j]; p[j] = t;
  }
  return p;
}

export function makeSplit(n: number, spec: SplitSpec, file = ''): SplitIndices {
  if ('indices' in spec) {
    const seen = new Map<number, string>();
    const out: SplitIndices = { train: [], val: [], test: [] };
    for (const part of ['train', 'val', 'test'] as const) {
      for (const i of spec.indices[part] ?? []) {
        if (!Number.isInteger(i) || i < 0 || i >= n) throw new DataError(file, `split.indices.${part}`, `index ${i} is outside the dataset`, `integers in 0..${n - 1}`);
        if (seen.has(i)) throw new DataError(file, `split.indices.${part}`, `index ${i} is also in ${seen.get(i)}`, 'disjoint index lists');
        seen.set(i, part);
        out[part].push(i);
      }
    }
    if (out.train.length === 0) throw new DataError(file, 'split.indices.train', 'training index list is empty', 'at least one sample');
    return out;
  }
  const { train, val } = spec;
  const test = spec.test ?? 0;
  for (const [k, v] of [['train', train], ['val', val], ['test', test]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new DataError(file, `split.${k}`, `count ${v} is not a non-negative integer`);
  }
  if (train < 1) throw new DataError(file, 'split.train', 'training set is empty', 'at least one sample');
  if (train + val + test > n) throw new DataError(file, 'split', `train ${train} + validation ${val} + test ${test} = ${train + val + test} samples, the dataset has ${n}`, `at most ${n} in total`);
  const order = spec.shuffle === false ? Array.from({ length: n }, (_, i) => i) : seededPermutation(n, spec.seed ?? 42);
  return { train: order.slice(0, train), val: order.slice(train, train + val), test: order.slice(train + val, train + val + test) };
}
