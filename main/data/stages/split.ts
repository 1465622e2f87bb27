// Train/validation/test split: a seeded shuffle (the release shuffles with seed 42 via
// torch.randperm, which JavaScript cannot reproduce) or an explicit index list, which reproduces
// an external split exactly.
import { DataError } from '../formats/errors';

export interface CountSplit { train: number; val: number; test?: number; seed?: number; shuffle?: boolean }
export interface IndexSplit { indices: { train: number[]; val: number[]; test?: number[] } }
export type SplitSpec = CountSplit | IndexSplit;
export interface SplitIndices { train: number[]; val: number[]; test: number[] }

/** splitmix32-seeded xorshift: small, fast, and the same on every platform. */
export function seededRandom(seed: number): () => number {
  let s = (seed >>> 0) ^ 0x9e3779b9;
  const next = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
  return next;
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
