// The paper's reading, testable: per block, the Pearson correlation between each light
// map and the coefficient interface indicator |grad a| (finite differences on the input's
// coefficient channel), pooled over every point of every sample.
import type { LightMaps } from './light-maps';
import { LIGHT_MAP_CORRELATED } from './light-map-records';

/** The maps the correlation table has a column for, in order (the API's list, so the job's result names them alike). */
export const CORRELATED_MAPS = LIGHT_MAP_CORRELATED;
export type CorrelatedMap = (typeof CORRELATED_MAPS)[number];

/**
 * |grad a| per point of a [B, ...grid, C] channels-last array's channel `channel`: central
 * differences inside, one-sided at the border (numpy.gradient), spacing 1/(n-1) per axis as the
 * model's coordinates. Returns [B * N].
 */
export function interfaceIndicator(x: ArrayLike<number>, shape: readonly number[], channel = 0): Float32Array {
  const B = shape[0]!;
  const grid = shape.slice(1, -1);
  const C = shape[shape.length - 1]!;
  const N = grid.reduce((a, b) => a * b, 1);
  const out = new Float32Array(B * N);
  const strides = grid.map((_, a) => grid.slice(a + 1).reduce((p, q) => p * q, 1));
  for (let b = 0; b < B; b++) {
    const at = (flat: number) => x[(b * N + flat) * C + channel]!;
    for (let flat = 0; flat < N; flat++) {
      let g2 = 0;
      grid.forEach((n, a) => {
        if (n < 2) return;
        const i = Math.floor(flat / strides[a]!) % n;
        const lo = i > 0 ? flat - strides[a]! : flat;
        const hi = i < n - 1 ? flat + strides[a]! : flat;
        const d = (at(hi) - at(lo)) / (((hi - lo) / strides[a]!) / (n - 1));
        g2 += d * d;
      });
      out[b * N + flat] = Math.sqrt(g2);
    }
  }
  return out;
}

/** Running Pearson correlation (sums in float64). */
export class Pearson {
  private n = 0; private sx = 0; private sy = 0; private sxx = 0; private syy = 0; private sxy = 0;

  add(x: ArrayLike<number>, y: ArrayLike<number>): void {
    if (x.length !== y.length) throw new Error(`Pearson: ${x.length} values against ${y.length}`);
    for (let i = 0; i < x.length; i++) {
      const a = x[i]!, b = y[i]!;
      this.n++; this.sx += a; this.sy += b; this.sxx += a * a; this.syy += b * b; this.sxy += a * b;
    }
  }

  /** NaN where either side is constant. */
  value(): number {
    const cov = this.sxy - (this.sx * this.sy) / this.n;
    const vx = this.sxx - (this.sx * this.sx) / this.n;
    const vy = this.syy - (this.sy * this.sy) / this.n;
    return vx > 0 && vy > 0 ? cov / Math.sqrt(vx * vy) : Number.NaN;
  }
}

export interface CorrelationRow {
  /** r pooled over every point of every sample. */
  pooled: Partial<Record<CorrelatedMap, number>>;
  /** Mean and std (population) over samples of each sample's own r (samples where r is undefined left out). */
  mean: Partial<Record<CorrelatedMap, number>>;
  std: Partial<Record<CorrelatedMap, number>>;
}

/** Per block, one accumulator per map the block has (a switched-off branch has none). */
export class LightMapCorrelation {
  readonly blocks: Map<CorrelatedMap, Pearson>[] = [];
  /** Per block and map, each sample's own r. */
  readonly perSample: Map<CorrelatedMap, number[]>[] = [];
  samples = 0;

  /** maps of a batch and that batch's inputs [B, ...grid, C] (coefficient in `channel`). */
  add(maps: LightMaps, x: ArrayLike<number>, shape: readonly number[], channel = 0): void {
    const ind = interfaceIndicator(x, shape, channel);
    const N = ind.length / maps.batch;
    maps.blocks.forEach((m, b) => {
      const acc = (this.blocks[b] ??= new Map());
      const each = (this.perSample[b] ??= new Map());
      const values: Partial<Record<CorrelatedMap, Float32Array>> = {
        reflectionActivity: m.reflectionActivity, refractionActivity: m.refractionActivity, ...m.contribution,
      };
      for (const k of CORRELATED_MAPS) {
        const v = values[k];
        if (!v) continue;
        if (!acc.has(k)) acc.set(k, new Pearson());
        acc.get(k)!.add(v, ind);
        if (!each.has(k)) each.set(k, []);
        for (let s = 0; s < maps.batch; s++) {
          const p = new Pearson();
          p.add(v.subarray(s * N, (s + 1) * N), ind.subarray(s * N, (s + 1) * N));
          each.get(k)!.push(p.value());
        }
      }
    });
    this.samples += maps.batch;
  }

  /** One row per block; a map the block does not have is absent. */
  table(): CorrelationRow[] {
    return this.blocks.map((acc, b) => {
      const row: CorrelationRow = { pooled: {}, mean: {}, std: {} };
      for (const [k, p] of acc) {
        row.pooled[k] = p.value();
        const rs = this.perSample[b]!.get(k)!.filter((r) => !Number.isNaN(r));
        const mean = rs.reduce((a, r) => a + r, 0) / rs.length;
        row.mean[k] = mean;
        row.std[k] = Math.sqrt(rs.reduce((a, r) => a + (r - mean) ** 2, 0) / rs.length);
      }
      return row;
    });
  }
}
