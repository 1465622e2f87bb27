// Light maps: per block and point, how much each branch acts, computed from the same
// forward pass as the prediction (the blocks' capture hook), never an N x N matrix.
//   activity_r/t = <h_i, vhat_i>^2 / ||h_i||^2 (vhat from that branch's own affine map);
//   contribution: reflection alpha_r 2|<h, vhat>|, refraction alpha_t |eta - 1| |<h, vhat>|,
//   scattering alpha_s ||S(h)_i||; latent norm ||x_i|| of the stream entering the block;
//   a query point's scattering kernel row (full: softmax row with the positional bias; efficient:
//   the global weights scaled by 1 - beta) and its local 3x3 / 3-point neighbourhood with beta.
import * as tf from '../../ops/tf';
import { linear } from '../../ops/linear';
import { rowDot, rowSquaredNorm } from '../../ops/row-dot';
import { unitNormalize } from '../../ops/unit-normalize';
import type { Component } from './config';
import type { BlockCapture, LightBlock } from './block';
import type { LinoOperator } from './operator';
import { GridConstants } from './constants';
import { readScalars } from './params';
import { gridCoordinates } from './coords';
import { ScatteringEfficient } from './scattering-efficient';
import { ScatteringFull } from './scattering-full';

export interface KernelRow {
  /** [B * N]: the query row of the global kernel for each sample. */
  row: Float32Array;
  /** Efficient scattering: flat indices of the query's local neighbourhood (clipped at the border) and beta. */
  local?: { indices: number[]; beta: number };
}

export interface BlockLightMaps {
  /** Each [B * N] (row-major over [B, ...grid]); absent where the branch is switched off. */
  reflectionActivity?: Float32Array;
  refractionActivity?: Float32Array;
  contribution: Partial<Record<Component, Float32Array>>;
  /** [B * N]: index into `components` of the branch with the largest contribution. */
  dominant: Int32Array;
  latentNorm: Float32Array;
  components: Component[];
  kernel?: KernelRow;
  /**
   * With `branchFields`: each enabled branch's contribution to the block's residual stream,
   * alpha_k W_out b_k(h) (out_proj without its bias, which no branch owns), [B * N * M] row-major over [B, ...grid, M].
   */
  fields?: Partial<Record<Component, Float32Array>>;
}

export interface LightMaps {
  batch: number;
  grid: number[];
  /** The query point as given ([i] or [i, j]), when there is one. */
  query?: number[];
  blocks: BlockLightMaps[];
  /** [depth * B * K] row-major, K = the number of enabled branches. */
  gates: Float32Array;
  /** The prediction of the same forward pass, [B, ...grid, C_out]; the caller disposes it. */
  y: tf.Tensor;
}

/** Flat index of a query point: [i] (1D) or [i, j] (2D), checked against the grid. */
export function queryIndex(grid: readonly number[], query: readonly number[]): number {
  if (query.length !== grid.length) throw new Error(`lightMaps: query [${query.join(', ')}] has ${query.length} coordinates, the grid [${grid.join(', ')}] needs ${grid.length}`);
  let flat = 0;
  query.forEach((q, a) => {
    if (!Number.isInteger(q) || q < 0 || q >= grid[a]!) throw new Error(`lightMaps: query coordinate ${a} is ${q}, expected an integer in [0, ${grid[a]! - 1}]`);
    flat = flat * grid[a]! + q;
  });
  return flat;
}

/** Flat indices of the 3 / 3x3 neighbourhood of a flat index, clipped at the border. */
export function neighbourhood(grid: readonly number[], flat: number): number[] {
  if (grid.length === 1) return [flat - 1, flat, flat + 1].filter((i) => i >= 0 && i < grid[0]!);
  const [H, W] = grid as [number, number];
  const i = Math.floor(flat / W), j = flat % W;
  const out: number[] = [];
  for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) {
    const a = i + di, b = j + dj;
    if (a >= 0 && a < H && b >= 0 && b < W) out.push(a * W + b);
  }
  return out;
}

type MapTensors = Record<string, tf.Tensor>;

/** <h, vhat>^2 / ||h||^2 and |<h, vhat>| per row, [B*N]. */
function projection(h: tf.Tensor2D, w: tf.Variable, b: tf.Variable, hh: tf.Tensor): { activity: tf.Tensor; dot: tf.Tensor } {
  const dot = tf.reshape(rowDot(h, unitNormalize(linear(h, w, b), 1e-6)), [-1]);
  return { activity: tf.div(tf.square(dot), hh), dot: tf.abs(dot) };
}

/** The query row of the global scattering kernel, [B, N]. */
function kernelRow(blk: LightBlock, h: tf.Tensor2D, batch: number, grid: readonly number[], q: number, consts: GridConstants): tf.Tensor {
  const s = blk.scattering!;
  const M = h.shape[1];
  const N = h.shape[0] / batch;
  const rows = tf.tensor1d(Array.from({ length: batch }, (_, b) => b * N + q), 'int32');
  if (s instanceof ScatteringFull) {
    const qi = tf.gather(linear(h, s.wq), rows); // [B, M]
    const k = tf.reshape(linear(h, s.wk), [batch, N, M]);
    const p = gridCoordinates(grid);
    const d = grid.length;
    const dist = new Float32Array(N);
    for (let j = 0; j < N; j++) {
      let t = 0;
      for (let a = 0; a < d; a++) t += (p[q * d + a]! - p[j * d + a]!) ** 2;
      dist[j] = t;
    }
    const logits = tf.sub(tf.mul(tf.sum(tf.mul(tf.expandDims(qi, 1), k), -1), 1 / Math.sqrt(M)), tf.mul(tf.softplus(s.logTau), tf.tensor1d(dist)));
    return tf.softmax(logits, -1);
  }
  const e = s as ScatteringEfficient;
  const [phq, phk] = e.features(h, batch, grid, consts); // [B, N, d]
  const qi = tf.gather(tf.reshape(phq, [batch * N, -1]), rows); // [B, d]
  const raw = tf.sum(tf.mul(tf.expandDims(qi, 1), phk), -1); // [B, N]
  const den = tf.add(tf.sum(tf.mul(qi, tf.sum(phk, 1)), -1, true), 1e-6);
  return tf.mul(tf.div(raw, den), tf.sub(1, tf.sigmoid(e.localGate)));
}

/** One block's maps as tensors [B*N] (kept by the caller), from its capture; with `fields` the branches' contributions [B*N, M] as 'field:<branch>'. */
function blockMaps(blk: LightBlock, c: BlockCapture, batch: number, grid: readonly number[], query: number | undefined, consts: GridConstants, fields: boolean): MapTensors {
  const out: MapTensors = {};
  const N = c.h.shape[0] / batch;
  const hh = tf.reshape(rowSquaredNorm(c.h), [-1]);
  const gateOf = (comp: Component) => {
    const k = blk.components.indexOf(comp);
    return tf.reshape(tf.tile(tf.slice(c.alpha, [0, k], [batch, 1]), [1, N]), [-1]);
  };
  if (blk.reflection) {
    const p = projection(c.h, blk.reflection.weight, blk.reflection.bias, hh);
    out.reflectionActivity = p.activity;
    out.reflection = tf.mul(tf.mul(p.dot, 2), gateOf('reflection'));
  }
  if (blk.refraction) {
    const p = projection(c.h, blk.refraction.weight, blk.refraction.bias, hh);
    out.refractionActivity = p.activity;
    out.refraction = tf.mul(tf.mul(p.dot, tf.abs(tf.sub(blk.refraction.eta(), 1))), gateOf('refraction'));
  }
  if (blk.scattering) {
    out.scattering = tf.mul(tf.reshape(tf.sqrt(rowSquaredNorm(c.branches.scattering!)), [-1]), gateOf('scattering'));
    if (query !== undefined) out.kernel = tf.reshape(kernelRow(blk, c.h, batch, grid, query, consts), [-1]);
  }
  out.dominant = tf.argMax(tf.stack(blk.components.map((k) => out[k]!), 1), 1);
  out.latentNorm = tf.reshape(tf.sqrt(rowSquaredNorm(c.x)), [-1]);
  out.alpha = c.alpha;
  if (fields) {
    for (const k of blk.components) out[`field:${k}`] = tf.mul(linear(c.branches[k]!, blk.outProj.weight), tf.reshape(gateOf(k), [-1, 1]));
  }
  return out;
}

/**
 * Light maps of every block for x [B, ...grid, C_in] (the operator's raw input), with the query
 * point's scattering kernel row when `query` ([i] or [i, j]) is given. Async reads only.
 */
export async function lightMaps(model: LinoOperator, x: tf.Tensor, opts: { query?: readonly number[]; branchFields?: boolean } = {}): Promise<LightMaps> {
  const grid = x.shape.slice(1, -1);
  const batch = x.shape[0]!;
  const query = opts.query ? queryIndex(grid, opts.query) : undefined;
  const consts = new GridConstants();
  await readScalars(model.variables.values()); // beta below, on any backend
  const kept: MapTensors[] = [];
  let y: tf.Tensor | undefined;
  try {
    y = model.forward(x, {
      capture: (b, c) => {
        const m = blockMaps(model.blocks[b]!, c, batch, grid, query, consts, opts.branchFields === true);
        for (const t of Object.values(m)) tf.keep(t);
        kept[b] = m;
      },
    }).y;
    const blocks: BlockLightMaps[] = [];
    const gates: Float32Array[] = [];
    for (const [b, m] of kept.entries()) {
      const blk = model.blocks[b]!;
      const read = async (k: string) => (m[k] ? ((await m[k]!.data()) as Float32Array) : undefined);
      const contribution: Partial<Record<Component, Float32Array>> = {};
      for (const k of blk.components) contribution[k] = (await read(k))!;
      const kernelRowData = await read('kernel');
      const fields: Partial<Record<Component, Float32Array>> = {};
      if (opts.branchFields) for (const k of blk.components) fields[k] = (await read(`field:${k}`))!;
      const local = query !== undefined && blk.scattering instanceof ScatteringEfficient
        ? { indices: neighbourhood(grid, query), beta: blk.scattering.betaValue() } : undefined;
      blocks.push({
        reflectionActivity: await read('reflectionActivity'),
        refractionActivity: await read('refractionActivity'),
        contribution,
        dominant: Int32Array.from((await m.dominant!.data()) as Int32Array),
        latentNorm: (await read('latentNorm'))!,
        components: [...blk.components],
        kernel: kernelRowData ? { row: kernelRowData, ...(local ? { local } : {}) } : undefined,
        ...(opts.branchFields ? { fields } : {}),
      });
      gates.push((await read('alpha'))!);
    }
    const all = new Float32Array(gates.reduce((n, g) => n + g.length, 0));
    let o = 0;
    for (const g of gates) { all.set(g, o); o += g.length; }
    return { batch, grid, ...(opts.query ? { query: [...opts.query] } : {}), blocks, gates: all, y };
  } catch (e) {
    y?.dispose();
    throw e;
  } finally {
    for (const m of kept) tf.dispose(Object.values(m));
    consts.dispose();
  }
}
