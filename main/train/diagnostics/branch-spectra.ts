// Which LiNO branch carries which frequencies: per block, the shell spectrum of each branch's
// contribution alpha_k W_out b_k(h) to the residual stream, from the same forward pass as the light
// maps (main/model/lino/light-maps.ts with branchFields), summed over the latent channels.
import * as tf from '../../ops/tf';
import { lightMaps } from '../../model/lino/light-maps';
import type { LinoOperator } from '../../model/lino/operator';
import type { Component } from '../../model/lino/config';
import { PDEBENCH_BANDS, shellCount, shellSpectrum } from './spectrum';
import type { BranchSpectraReport } from './schema';
import { gatherRows, type TrainSplit } from '../data';

type Band = 'low' | 'mid' | 'high';
const bandOf = (k: number): Band => (k < PDEBENCH_BANDS.iLow ? 'low' : k < PDEBENCH_BANDS.iHigh ? 'mid' : 'high');

/**
 * Branch spectra of the first `maxSamples` rows of an encoded split (x as the model takes it),
 * `batchSize` rows per forward pass.
 */
export async function branchSpectra(model: LinoOperator, x: TrainSplit['x'], o: { maxSamples?: number; batchSize?: number } = {}): Promise<BranchSpectraReport> {
  const n = Math.min(x.shape[0]!, o.maxSamples ?? x.shape[0]!);
  if (n < 1) throw new Error('branch spectra: the split has no samples');
  const grid = x.shape.slice(1, -1);
  if (grid.length < 1 || grid.length > 2) throw new Error(`branch spectra: grid ${grid.join('x')} is not 1-D or 2-D`);
  const P = grid.reduce((a, b) => a * b, 1), K = shellCount(grid);
  const sums: Partial<Record<Component, Float64Array>>[] = [];
  const comps: Component[][] = [];
  const bs = Math.max(1, o.batchSize ?? 4);
  for (let i = 0; i < n; i += bs) {
    const rows = Array.from({ length: Math.min(bs, n - i) }, (_, k) => i + k);
    const g = gatherRows(x, rows);
    const t = tf.tensor(g.data, g.shape, 'float32');
    let maps;
    try {
      maps = await lightMaps(model, t, { branchFields: true });
    } finally {
      t.dispose();
    }
    maps.y.dispose();
    maps.blocks.forEach((blk, b) => {
      comps[b] = blk.components;
      sums[b] ??= {};
      for (const k of blk.components) {
        const f = blk.fields![k]!;
        const M = f.length / (rows.length * P);
        const acc = (sums[b]![k] ??= new Float64Array(K));
        for (let s = 0; s < rows.length; s++) for (let m = 0; m < M; m++) {
          const E = shellSpectrum(f, grid, s * P * M + m, M);
          for (let q = 0; q < K; q++) acc[q]! += E[q]! / n;
        }
      }
    });
  }
  const blocks = comps.map((components, b) => {
    const spectra: Partial<Record<Component, number[]>> = {};
    const energy: Partial<Record<Component, Record<Band, number>>> = {};
    const total: Record<Band, number> = { low: 0, mid: 0, high: 0 };
    for (const k of components) {
      const E = sums[b]![k]!;
      spectra[k] = [...E];
      const e = { low: 0, mid: 0, high: 0 };
      E.forEach((v, q) => { e[bandOf(q)] += v; });
      energy[k] = e;
      for (const band of ['low', 'mid', 'high'] as const) total[band] += e[band];
    }
    const has = (band: Band) => K > (band === 'low' ? 0 : band === 'mid' ? PDEBENCH_BANDS.iLow : PDEBENCH_BANDS.iHigh);
    const share = (k: Component, band: Band) => (has(band) && total[band] > 0 ? energy[k]![band] / total[band] : null);
    const bandShare = Object.fromEntries(components.map((k) => [k, { low: share(k, 'low'), mid: share(k, 'mid'), high: share(k, 'high') }]));
    return { components, spectra, bandShare };
  });
  return { grid, samples: n, bands: { ...PDEBENCH_BANDS }, blocks };
}
