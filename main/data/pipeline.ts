// From a source (a data file, an airfoil folder, a generator's output, or arrays in memory) to the
// prepared dataset: split (over samples / trajectories), resize, Navier-Stokes windows, scalar
// normalization fitted on the training split, coordinate channels. The order and conventions
// follow docs/protocol.md (the release's pipeline); see docs/data.md.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DatasetBenchmark, DatasetManifest, PipelineOptions, PreparedDataset, PreparedSplit, SourceDescription, SplitName } from './dataset';
import { DataError } from './formats/errors';
import { openDataFile } from './formats/index';
import type { DataFile } from './formats/types';
import type { GeneratedDataset } from './generate/types';
import type { NdArray } from './ndarray';
import { ndarray } from './ndarray';
import { gridCoords } from './stages/coords';
import { NORM_EPS, encodeInPlace, scalarStats, type ScalarStats } from './stages/normalize';
import { cutWindows, windowStarts } from './stages/ns-windows';
import { resizeSpatial } from './stages/resize';
import { defaultSplit, makeSplit, type SplitRequest } from './stages/split';
import { applyLayout, sampleGroups, shortTrajectoryAdvice, type SourceLayout } from './stages/layout';
import { MACH_CHANNEL } from './formats/geofno-airfoil';
import { totalmem } from 'node:os';
import { errorMessage } from '../util/error-message';

export type DataSource =
  | { kind: 'file'; path: string; input?: string[]; target?: string; layout?: SourceLayout }
  | { kind: 'generated'; dataset: GeneratedDataset; input?: string[]; target?: string }
  | { kind: 'arrays'; name: string; variables: Record<string, NdArray>; input?: string[]; target?: string };

export interface PipelineHooks {
  onWarning?: (message: string) => void;
  onProgress?: (p: { stage: string; done: number; total: number }) => void;
  /** Variables up to this size are read whole; larger ones row by row (default: a quarter of RAM). */
  memoryBudgetBytes?: number;
}

/** Variable names of the published files (the file browser's defaults). */
export const DEFAULT_VARIABLES: Record<DatasetBenchmark, { input: string[]; target: string } | null> = {
  burgers: { input: ['a'], target: 'u' },
  darcy: { input: ['coeff'], target: 'sol' },
  'navier-stokes': { input: [], target: 'u' },
  airfoil: { input: ['X', 'Y'], target: 'mach' },
  custom: null,
};

const SPATIAL_RANK: Record<DatasetBenchmark, number | null> = { burgers: 1, darcy: 2, 'navier-stokes': 2, airfoil: 2, custom: null };

/** Navier-Stokes normalizer when none is chosen: the release's (history and target frames apart). */
export const DEFAULT_NS_NORMALIZER = 'separate' as const;

/** The release's published train/validation counts; custom data has none. */
const RELEASE_COUNTS: Record<DatasetBenchmark, { train: number; val: number } | undefined> = {
  burgers: { train: 1600, val: 448 }, darcy: { train: 800, val: 224 }, 'navier-stokes': { train: 2000, val: 1000 }, airfoil: { train: 1000, val: 200 }, custom: undefined,
};

/**
 * The release's settings for a benchmark with `samples` samples in the source; the split sizes
 * follow the one rule of stages/split.ts (`defaultSplit`), with the counts asked for kept.
 */
export function releaseOptions(benchmark: DatasetBenchmark, samples: number, asked: SplitRequest = {}): PipelineOptions {
  const c = defaultSplit(samples, RELEASE_COUNTS[benchmark], asked);
  const counts = { train: c.train, val: c.val, ...(c.test ? { test: c.test } : {}) };
  const seed = asked.seed ?? 42;
  switch (benchmark) {
    case 'burgers': return { benchmark, split: { ...counts, seed }, resolution: 256 };
    case 'darcy': return { benchmark, split: { ...counts, seed }, resolution: 85 };
    case 'navier-stokes': return { benchmark, split: { ...counts, seed }, ns: { tIn: 10, tOut: 10, normalizer: DEFAULT_NS_NORMALIZER } };
    case 'airfoil': return { benchmark, split: { ...counts, shuffle: false } };
    default: return { benchmark, split: { ...counts, seed } };
  }
}

/**
 * The number of samples (trajectories for Navier-Stokes) a source holds, from its listing only
 * (nothing is read), so a split can be sized before the pipeline runs.
 */
export async function countSamples(source: DataSource, benchmark: DatasetBenchmark): Promise<number> {
  const target = source.target ?? DEFAULT_VARIABLES[benchmark]?.target;
  if (source.kind !== 'file') {
    const vars = airfoilAliases(source.kind === 'generated' ? source.dataset.variables : source.variables);
    return (target ? vars[target] : Object.values(vars)[0])?.shape[0] ?? 0;
  }
  const path = resolve(source.path);
  const f = await openDataFile(path);
  try {
    const vars = f.variables();
    const v = vars.find((x) => x.name === target);
    if (!target) throw new DataError(path, 'variables', 'no target variable chosen', 'input and target variable names for a custom dataset');
    if (!v) throw new DataError(path, target, 'no such variable', vars.map((k) => `'${k.name}'`).join(', ') || 'a numeric variable');
    return v.shape[0] ?? 0;
  } finally {
    f.close();
  }
}

interface RowSource {
  name: string;
  file: string;
  shape: number[];
  readRows(start: number, count: number): Promise<NdArray>;
}

function memorySource(name: string, file: string, arr: NdArray): RowSource {
  const per = arr.shape.slice(1).reduce((a, b) => a * b, 1);
  return {
    name, file, shape: [...arr.shape],
    async readRows(start, count) {
      return ndarray(arr.data.subarray(start * per, (start + count) * per), [count, ...arr.shape.slice(1)], arr.dtype);
    },
  };
}

/** Geo-FNO names as generators emit them -> the reader's names (X, Y, Q, mach = Q channel 4). */
function airfoilAliases(vars: Record<string, NdArray>): Record<string, NdArray> {
  const out = { ...vars };
  if (vars.NACA_Cylinder_X && !out.X) out.X = vars.NACA_Cylinder_X;
  if (vars.NACA_Cylinder_Y && !out.Y) out.Y = vars.NACA_Cylinder_Y;
  const q = vars.NACA_Cylinder_Q ?? vars.Q;
  if (q && !out.mach && q.shape.length === 4 && q.shape[1] > MACH_CHANNEL) {
    const [N, C, H, W] = q.shape;
    const plane = H * W;
    const m = new (q.data.constructor as Float64ArrayConstructor)(N * plane);
    for (let n = 0; n < N; n++) m.set((q.data as Float64Array).subarray((n * C + MACH_CHANNEL) * plane, (n * C + MACH_CHANNEL + 1) * plane), n * plane);
    out.mach = ndarray(m, [N, H, W], q.dtype);
  }
  return out;
}

interface OpenedSource {
  desc: SourceDescription; input: RowSource[]; target: RowSource; close(): void;
  /** More target variables (a layout's `targets`): output channels after `target`. */
  extraTargets?: RowSource[];
  /** Trajectories [N, ...grid, T] cut into these windows (a layout's autoregressive time split). */
  windows?: { tIn: number; tOut: number };
  notes?: string[];
}

async function openSource(source: DataSource, benchmark: DatasetBenchmark, budget: number): Promise<OpenedSource> {
  const defaults = DEFAULT_VARIABLES[benchmark];
  const inputNames = source.input ?? defaults?.input;
  const targetName = source.target ?? defaults?.target;
  const label = source.kind === 'file' ? source.path : source.kind === 'arrays' ? source.name : `generated ${source.dataset.benchmark}`;
  if (!inputNames || !targetName) throw new DataError(label, 'variables', 'no input/target variables chosen', 'input and target variable names for a custom dataset');
  const layout = source.kind === 'file' ? source.layout : undefined;
  if (inputNames.includes(targetName) && !layout?.time) {
    throw new DataError(label, 'input', `'${targetName}' is both input and target: an identity task`, `a time split of '${targetName}' (operator t0 -> t1 or autoregressive T_in -> T_out along its time axis), or another input variable`);
  }
  if (source.kind !== 'file') {
    const vars = airfoilAliases(source.kind === 'generated' ? source.dataset.variables : source.variables);
    const get = (n: string) => {
      const v = vars[n];
      if (!v) throw new DataError(label, n, 'no such variable', Object.keys(vars).map((k) => `'${k}'`).join(', '));
      return memorySource(n, label, v);
    };
    return { desc: describeSource(source, benchmark), input: inputNames.map(get), target: get(targetName), close() {} };
  }
  const path = resolve(source.path);
  const f: DataFile = await openDataFile(path);
  try {
    if (layout) {
      const laid = await applyLayout(f, layout, inputNames, targetName, budget);
      const st = statSync(path);
      const mem = (n: string) => memorySource(n, path, laid.variables[n]);
      return {
        desc: { kind: 'file', path, format: f.format, size: st.size, mtimeMs: Math.floor(st.mtimeMs), input: inputNames, target: targetName, layout },
        input: laid.input.map(mem), target: mem(laid.target), extraTargets: laid.extraTargets.map(mem), close: () => f.close(), notes: laid.notes,
        ...(laid.windows ? { windows: laid.windows } : {}),
      };
    }
    const listing = new Map(f.variables().map((v) => [v.name, v]));
    const groups = sampleGroups(f.variables());
    for (const n of [...inputNames, targetName]) {
      const m = /^(\d+)\/(.+)$/.exec(n);
      if (groups && m && groups.groups.includes(m[1])) {
        throw new DataError(path, n, `is one sample of ${groups.groups.length} per-sample groups (its first axis would be taken as samples)`, `the groups read as samples (layout.groups) with the variable '${m[2]}'`);
      }
    }
    const pick = async (n: string): Promise<RowSource> => {
      const v = listing.get(n);
      if (!v) throw new DataError(path, n, 'no such variable', [...listing.keys()].map((k) => `'${k}'`).join(', ') || 'a numeric variable');
      if (v.unsupported) throw new DataError(path, n, v.unsupported, 'a real numeric array');
      if (v.shape.length === 0) throw new DataError(path, n, 'is a scalar', 'an array with samples along its first axis');
      // small enough: read once (fastest for every format); otherwise rows on demand
      if (v.bytes <= budget) return memorySource(n, path, await f.read(n));
      return { name: n, file: path, shape: [...v.shape], readRows: (s, c) => f.readRows(n, s, c) };
    };
    const input: RowSource[] = [];
    for (const n of inputNames) input.push(await pick(n));
    const target = await pick(targetName);
    const st = statSync(path);
    return {
      desc: { kind: 'file', path, format: f.format, size: st.size, mtimeMs: Math.floor(st.mtimeMs), input: inputNames, target: targetName },
      input, target, close: () => f.close(),
    };
  } catch (err) {
    f.close();
    throw err;
  }
}

/** Samples of one block: sample numbers ascending within a window of BLOCK rows, with their split positions. */
interface Block { samples: number[]; pos: number[] }
const BLOCK = 64;

/**
 * Splits a split's indices into blocks of nearby sample numbers, so a lazy source reads each block
 * with one range read (one hyperslab for v7.3/HDF5, whose samples are interleaved on disk) and
 * the pipeline holds one block at full resolution at a time.
 */
function blocksOf(indices: readonly number[]): Block[] {
  const order = indices.map((s, pos) => ({ s, pos })).sort((a, b) => a.s - b.s);
  const out: Block[] = [];
  for (let i = 0; i < order.length;) {
    const lo = order[i].s;
    const b: Block = { samples: [], pos: [] };
    while (i < order.length && order[i].s < lo + BLOCK) { b.samples.push(order[i].s); b.pos.push(order[i].pos); i++; }
    out.push(b);
  }
  return out;
}

/** Reads a block's samples (one range read) into float64 [k, ...rest], refusing NaN/Inf. */
async function gatherBlock(src: RowSource, b: Block): Promise<Float64Array> {
  const per = src.shape.slice(1).reduce((a, c) => a * c, 1);
  const lo = b.samples[0], hi = b.samples[b.samples.length - 1] + 1;
  const rows = await src.readRows(lo, hi - lo);
  const d = rows.data;
  const out = new Float64Array(b.samples.length * per);
  for (let r = 0; r < b.samples.length; r++) {
    const base = (b.samples[r] - lo) * per, dst = r * per;
    if (d instanceof BigInt64Array) { for (let k = 0; k < per; k++) out[dst + k] = Number(d[base + k]); }
    else out.set((d as Float64Array).subarray(base, base + per), dst);
    for (let k = 0; k < per; k++) {
      const v = out[dst + k];
      if (v !== v || v === Infinity || v === -Infinity) {
        throw new DataError(src.file, src.name, `sample ${b.samples[r]} holds ${v} at element ${k}`, 'finite values');
      }
    }
  }
  return out;
}

function squeezeRest(shape: readonly number[]): number[] {
  return [shape[0], ...shape.slice(1).filter((d) => d !== 1)];
}

export function cacheKeyFor(desc: SourceDescription, options: PipelineOptions): string {
  // the detected format is not part of the identity (it is known only after opening the file)
  const ident = desc.kind === 'file' ? { ...desc, format: '' } : desc;
  return createHash('sha256').update(JSON.stringify({ v: 1, source: ident, options })).digest('hex');
}

/**
 * What identifies a source for the cache, without reading its data: a file by path, size and
 * modification time; generated data by its generator manifest; arrays by name.
 */
export function describeSource(source: DataSource, benchmark: DatasetBenchmark): SourceDescription {
  const d = DEFAULT_VARIABLES[benchmark];
  const input = source.input ?? d?.input ?? [];
  const target = source.target ?? d?.target ?? '';
  if (source.kind === 'generated') return { kind: 'generated', benchmark: source.dataset.benchmark, input, target, generator: source.dataset.manifest };
  if (source.kind === 'arrays') return { kind: 'arrays', name: source.name, input, target };
  const path = resolve(source.path);
  let st;
  try { st = statSync(path); } catch (err) { throw new DataError(path, '', `cannot open: ${errorMessage(err)}`); }
  return { kind: 'file', path, format: '', size: st.size, mtimeMs: Math.floor(st.mtimeMs), input, target, ...(source.layout ? { layout: source.layout } : {}) };
}

/**
 * Checks that inputs and target agree on samples and grid and that the grid is 1-D or 2-D;
 * answers whether the target holds trajectories (Navier-Stokes or an autoregressive layout), its
 * shape with trailing unit axes dropped, and the grid's rank. Errors name the file and variable.
 */
function checkShapes(src: Awaited<ReturnType<typeof openSource>>, source: DataSource, benchmark: PipelineOptions['benchmark'], file: string): { isNS: boolean; tShape: number[]; rank: number } {
  if (benchmark === 'navier-stokes' && src.notes && !src.windows && source.kind === 'file' && source.layout?.time) {
    throw new DataError(file, 'layout.time', 'Navier-Stokes is autoregressive', "an autoregressive time split, or benchmark 'custom' for operator mode");
  }
  // trajectories: Navier-Stokes, or any time series a layout split autoregressively
  const isNS = benchmark === 'navier-stokes' || !!src.windows;
  // shapes: inputs and target must agree on samples and grid
  const tShape = isNS ? src.target.shape : squeezeRest(src.target.shape);
  const rank = isNS ? tShape.length - 2 : SPATIAL_RANK[benchmark] ?? tShape.length - 1;
  if (rank > 2) {
    throw new DataError(file, src.target.name, `shape [${src.target.shape.join(', ')}] would be a ${rank}-D grid`, 'a 1-D or 2-D grid (LiNO takes 1-D and 2-D fields); 3-D data cannot be trained here');
  }
  if (isNS && !src.windows && tShape.length === 4 && tShape[2] === tShape[3] && tShape[1] !== tShape[2] && !(source.kind === 'file' && source.layout)) {
    // PDEBench stores time second: taking the last axis as frames would be silently wrong
    throw new DataError(file, src.target.name, `shape [${tShape.join(', ')}] reads as [N=${tShape[0]}, H=${tShape[1]}, W=${tShape[2]}, T=${tShape[3]}], a non-square grid with as many frames as points`, `[N, s, s, T]; a PDEBench [N, T, H, W] series takes layout.time on axis 1 (autoregressive)`);
  }
  if (isNS) {
    if (src.input.length > 0) throw new DataError(file, src.input[0].name, 'Navier-Stokes takes its history from the trajectory itself', 'no input variables, target u [N, s, s, T]');
    if (benchmark === 'navier-stokes' && tShape.length !== 4) throw new DataError(file, src.target.name, `shape [${src.target.shape.join(', ')}]`, '[N, s, s, T] (trajectories, grid, frames)');
    if (rank < 1) throw new DataError(file, src.target.name, `shape [${src.target.shape.join(', ')}]`, 'trajectories [N, ...grid, T] with a 1-D or 2-D grid');
  } else if (tShape.length !== rank + 1) {
    throw new DataError(file, src.target.name, `shape [${src.target.shape.join(', ')}] has ${tShape.length - 1} grid axes`, `${rank} for ${benchmark} ([N, ${Array(rank).fill('s').join(', ')}])`);
  }
  if (!isNS && src.input.length === 0) throw new DataError(file, 'input', 'no input variable chosen', 'at least one input variable');
  if (isNS && src.extraTargets?.length) throw new DataError(file, src.extraTargets[0].name, 'Navier-Stokes windows take one variable', 'one target variable');
  for (const inp of [...src.input, ...(src.extraTargets ?? [])]) {
    const s = squeezeRest(inp.shape);
    if (s.join() !== tShape.join()) {
      throw new DataError(file, inp.name, `shape [${inp.shape.join(', ')}] does not match target '${src.target.name}' [${src.target.shape.join(', ')}]`, 'the same number of samples and the same grid');
    }
  }
  return { isNS, tShape, rank };
}

export async function prepareDataset(source: DataSource, options: PipelineOptions, hooks: PipelineHooks = {}): Promise<PreparedDataset> {
  const benchmark = options.benchmark;
  const budget = hooks.memoryBudgetBytes ?? Math.floor(totalmem() / 4);
  const warnings: string[] = [];
  const warn = (m: string) => { warnings.push(m); hooks.onWarning?.(m); };
  const src = await openSource(source, benchmark, budget);
  try {
    const file = src.desc.kind === 'file' ? src.desc.path : src.target.file;
    for (const m of src.notes ?? []) warn(m);
    const { isNS, tShape, rank } = checkShapes(src, source, benchmark, file);
    const N = src.target.shape[0];
    const grid0 = tShape.slice(1, 1 + rank);
    const res = options.resolution === undefined ? grid0 : Array.isArray(options.resolution) ? options.resolution : Array(rank).fill(options.resolution);
    if (res.length !== rank || res.some((r) => !Number.isInteger(r) || r < 1)) throw new DataError(file, 'resolution', `[${res.join(', ')}]`, `${rank} positive integer(s)`);
    for (let k = 0; k < rank; k++) {
      if (res[k] > grid0[k]) warn(`resizing axis ${k + 1} from ${grid0[k]} to ${res[k]} points upsamples the data: interpolation adds no information`);
    }
    const split = makeSplit(N, options.split, file);
    const P = res.reduce((a, b) => a * b, 1);
    const T = isNS ? tShape[tShape.length - 1] : 0;
    const ns = src.windows ? { ...options.ns, ...src.windows } : options.ns ?? { tIn: 10, tOut: 10 };
    if (isNS && !src.windows && ns.tIn + ns.tOut > T) {
      const fmt = src.desc.kind === 'file' ? src.desc.format : '';
      throw new DataError(file, src.target.name, `trajectories have ${T} frames, T_in + T_out = ${ns.tIn + ns.tOut}: ${shortTrajectoryAdvice(tShape, ns.tIn + ns.tOut, fmt)}`, `at least ${ns.tIn + ns.tOut} frames`);
    }
    const mode = options.resizeMode ?? 'interpolate';

    const raw: Record<SplitName, { x: Float64Array; y: Float64Array; n: number; indices: Int32Array; starts?: Int32Array }> = {} as never;
    let cIn = 0, cOut = 0;
    const parts: SplitName[] = ['train', 'val', 'test'];
    for (const part of parts) {
      const idx = split[part];
      hooks.onProgress?.({ stage: `reading ${part}`, done: parts.indexOf(part), total: 3 });
      const blocks = blocksOf(idx);
      if (isNS) {
        const starts = windowStarts(T, ns, !!ns.sliding && part === 'train', file);
        const W = starts.length;
        cIn = ns.tIn; cOut = ns.tOut;
        const x = new Float64Array(idx.length * W * P * cIn), y = new Float64Array(idx.length * W * P * cOut);
        for (const b of blocks) {
          const u = await gatherBlock(src.target, b);
          const r = resizeSpatial(ndarray(u, [b.samples.length, ...tShape.slice(1)], 'float64'), res, mode, 'resolution').arr;
          const w = cutWindows(r.data as Float64Array, b.samples.length, P, T, starts, ns.tIn, ns.tOut);
          // window j of block trajectory r goes to row pos[r] * W + j (split order kept)
          for (let q = 0; q < b.samples.length; q++) {
            x.set(w.x.subarray(q * W * P * cIn, (q + 1) * W * P * cIn), b.pos[q] * W * P * cIn);
            y.set(w.y.subarray(q * W * P * cOut, (q + 1) * W * P * cOut), b.pos[q] * W * P * cOut);
          }
        }
        const indices = new Int32Array(idx.length * W), st = new Int32Array(idx.length * W);
        let k = 0;
        for (const i of idx) for (const t0 of starts) { indices[k] = i; st[k] = t0; k++; }
        raw[part] = { x, y, n: idx.length * W, indices, starts: st };
      } else {
        const outs = [src.target, ...(src.extraTargets ?? [])];
        cIn = src.input.length; cOut = outs.length;
        const x = new Float64Array(idx.length * P * cIn), y = new Float64Array(idx.length * P * cOut);
        for (const b of blocks) {
          const k = b.samples.length;
          for (let c = 0; c < cIn; c++) {
            const r = resizeSpatial(ndarray(await gatherBlock(src.input[c], b), [k, ...grid0], 'float64'), res, mode, 'resolution').arr.data as Float64Array;
            for (let q = 0; q < k; q++) {
              const o = b.pos[q] * P;
              for (let p = 0; p < P; p++) x[(o + p) * cIn + c] = r[q * P + p];
            }
          }
          for (let c = 0; c < cOut; c++) {
            const r = resizeSpatial(ndarray(await gatherBlock(outs[c], b), [k, ...grid0], 'float64'), res, mode, 'resolution').arr.data as Float64Array;
            for (let q = 0; q < k; q++) {
              const o = b.pos[q] * P;
              for (let p = 0; p < P; p++) y[(o + p) * cOut + c] = r[q * P + p];
            }
          }
        }
        raw[part] = { x, y, n: idx.length, indices: Int32Array.from(idx) };
      }
    }

    // statistics from the training split only
    hooks.onProgress?.({ stage: 'normalizing', done: 3, total: 3 });
    let sx: ScalarStats, sy: ScalarStats, scope: string;
    if (isNS && (ns.normalizer ?? DEFAULT_NS_NORMALIZER) === 'shared') {
      sx = sy = scalarStats([raw.train.x, raw.train.y], 'normalizer');
      scope = 'one scalar mean/std over every history and target frame of the training windows';
    } else {
      sx = scalarStats([raw.train.x], 'normalizer.x');
      sy = scalarStats([raw.train.y], 'normalizer.y');
      scope = isNS ? 'history frames and target frames normalized apart (the release)' : 'one scalar mean/std over all training inputs, another over all training targets';
    }
    const applied = options.normalize !== false;
    const coords = options.coords !== false;
    const d = coords ? rank : 0;
    const coordVals = coords ? gridCoords(res) : new Float32Array(0);
    const out = {} as Record<SplitName, PreparedSplit>;
    for (const part of parts) {
      const r = raw[part];
      if (applied) { encodeInPlace(r.x, sx); encodeInPlace(r.y, sy); }
      const C = cIn + d;
      const x = new Float32Array(r.n * P * C);
      for (let s = 0; s < r.n; s++) for (let p = 0; p < P; p++) {
        const o = (s * P + p) * C, ix = (s * P + p) * cIn;
        for (let c = 0; c < cIn; c++) x[o + c] = r.x[ix + c];
        for (let c = 0; c < d; c++) x[o + cIn + c] = coordVals[p * d + c];
      }
      out[part] = {
        x: ndarray(x, [r.n, ...res, C], 'float32'),
        y: ndarray(Float32Array.from(r.y), [r.n, ...res, cOut], 'float32'),
        indices: r.indices,
        ...(r.starts ? { windowStart: r.starts } : {}),
      };
    }
    const coordNames = benchmark === 'airfoil' ? ['xi', 'eta'] : rank === 1 ? ['x'] : rank === 2 ? ['x', 'y'] : Array.from({ length: rank }, (_, k) => `x${k}`);
    const xChannels = isNS ? Array.from({ length: ns.tIn }, (_, t) => `${src.target.name}[t${t}]`) : src.input.map((s) => s.name);
    const yChannels = isNS ? Array.from({ length: ns.tOut }, (_, t) => `${src.target.name}[t${ns.tIn + t}]`) : [src.target, ...(src.extraTargets ?? [])].map((s) => s.name);
    const resolved: PipelineOptions = { ...options, resolution: res, resizeMode: mode, coords, normalize: applied, ...(isNS ? { ns: { normalizer: DEFAULT_NS_NORMALIZER, ...ns } } : {}) };
    const cacheKey = cacheKeyFor(src.desc, options);
    const manifest: DatasetManifest = {
      format: 'lino-dataset', version: 1,
      id: `${benchmark}-${cacheKey.slice(0, 12)}`,
      createdAt: new Date().toISOString(),
      benchmark, source: src.desc, parameters: resolved, sourceSamples: N, sourceGrid: [...grid0],
      counts: { train: out.train.x.shape[0], val: out.val.x.shape[0], test: out.test.x.shape[0] },
      grid: res, xChannels: [...xChannels, ...(coords ? coordNames : [])], yChannels, coordChannels: d,
      normalization: { x: sx, y: sy, eps: NORM_EPS, applied, scope },
      warnings, cacheKey,
    };
    return { manifest, ...out };
  } finally {
    src.close();
  }
}
