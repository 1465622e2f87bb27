// The diagnostics of an evaluation (main/train/diagnostics/) as tables: spectra per shell, bands
// per scope, physics per sample. `lino eval --spectrum` writes them as CSV; the views export them.
import type { TableColumn, TableRow } from './table';
import type { BranchSpectraReport, SplitDiagnostics } from '../train/diagnostics/schema';

export interface DiagnosticsTable { name: string; columns: TableColumn[]; rows: TableRow[] }

const col = (key: string, label = key, align: 'l' | 'r' = 'r'): TableColumn => ({ key, label, align });
type Summary = NonNullable<SplitDiagnostics['spectrum']>['mean'];

/** Three tables (spectrum, bands, physics) for the diagnostics of one or more evaluated grids. */
export function diagnosticsTables(entries: { grid: number[]; diagnostics: SplitDiagnostics }[]): DiagnosticsTable[] {
  const spectrum: TableRow[] = [], bands: TableRow[] = [], physics: TableRow[] = [];
  for (const { grid, diagnostics: d } of entries) {
    const g = grid.join('x');
    const s = d.spectrum;
    if (s) {
      const scopes: { scope: string; index: number | null; sum: Summary }[] = [
        { scope: 'mean', index: null, sum: s.mean },
        ...s.perChannel.map((sum, c) => ({ scope: 'channel', index: c, sum })),
        ...s.perSample.map((sum) => ({ scope: 'sample', index: sum.index, sum })),
      ];
      for (const { scope, index, sum } of scopes) {
        sum.error.forEach((e, k) => spectrum.push({ grid: g, scope, index, k, error: e, truth: sum.truth[k]!, relative: sum.relative[k] ?? null }));
        bands.push({
          grid: g, scope, index,
          fRmseLow: sum.fRmse.low, fRmseMid: sum.fRmse.mid, fRmseHigh: sum.fRmse.high,
          relLow: sum.bandRelative.low, relMid: sum.bandRelative.mid, relHigh: sum.bandRelative.high,
        });
      }
    }
    const p = d.physics;
    if (p) {
      physics.push({ grid: g, benchmark: p.benchmark, scope: 'mean', index: null, prediction: p.mean.prediction, truth: p.mean.truth });
      p.perStep?.forEach((v, t) => physics.push({ grid: g, benchmark: p.benchmark, scope: 'step', index: t + 1, prediction: v.prediction, truth: v.truth }));
      for (const v of p.perSample) physics.push({ grid: g, benchmark: p.benchmark, scope: 'sample', index: v.index, prediction: v.prediction, truth: v.truth });
      if (p.equation) {
        physics.push({ grid: g, benchmark: p.benchmark, scope: 'equation mean', index: null, prediction: p.equation.mean.prediction, truth: p.equation.mean.truth });
        p.equation.perStep.forEach((v, t) => physics.push({ grid: g, benchmark: p.benchmark, scope: 'equation step', index: t + 1, prediction: v.prediction, truth: v.truth }));
      }
    }
  }
  const key = [col('grid', 'grid', 'l'), col('scope', 'scope', 'l'), col('index')];
  return [
    { name: 'spectrum', columns: [...key, col('k'), col('error', 'E_error'), col('truth', 'E_truth'), col('relative')], rows: spectrum },
    { name: 'bands', columns: [...key, col('fRmseLow', 'fRMSE_low'), col('fRmseMid', 'fRMSE_mid'), col('fRmseHigh', 'fRMSE_high'), col('relLow', 'rel_low'), col('relMid', 'rel_mid'), col('relHigh', 'rel_high')], rows: bands },
    { name: 'physics', columns: [col('grid', 'grid', 'l'), col('benchmark', 'benchmark', 'l'), col('scope', 'scope', 'l'), col('index'), col('prediction'), col('truth')], rows: physics },
  ];
}

/** Per block and branch: the shell spectrum (one row per shell) and the band shares (one row per branch). */
export function branchSpectraTables(r: BranchSpectraReport): DiagnosticsTable[] {
  const spectra: TableRow[] = [], shares: TableRow[] = [];
  r.blocks.forEach((b, block) => {
    for (const k of b.components) {
      b.spectra[k]!.forEach((e, q) => spectra.push({ block, branch: k, k: q, energy: e }));
      const s = b.bandShare[k]!;
      shares.push({ block, branch: k, low: s.low, mid: s.mid, high: s.high });
    }
  });
  return [
    { name: 'branch-spectra', columns: [col('block'), col('branch', 'branch', 'l'), col('k'), col('energy', 'E')], rows: spectra },
    { name: 'branch-bands', columns: [col('block'), col('branch', 'branch', 'l'), col('low', 'share_low'), col('mid', 'share_mid'), col('high', 'share_high')], rows: shares },
  ];
}

/** One variant of an ablation (or any run) with its evaluation's split relL2 and branch spectra. */
export interface BranchVariant {
  variant: string;
  runId: string;
  /** The evaluated split's mean relL2 on normalized fields, and decoded (physical units). */
  relL2: number | null;
  relL2Decoded: number | null;
  branches: BranchSpectraReport;
}

/** Sum of a shell spectrum over PDEBench's bands: low [0, iLow), mid [iLow, iHigh), high [iHigh, end); null where the grid has no shell in the band. */
export function bandEnergies(E: number[], bands: { iLow: number; iHigh: number }): { low: number | null; mid: number | null; high: number | null } {
  const sum = (a: number, b: number) => (E.length > a ? E.slice(a, b).reduce((s, v) => s + v, 0) : null);
  return { low: sum(0, bands.iLow), mid: sum(bands.iLow, bands.iHigh), high: sum(bands.iHigh, E.length) };
}

/** The conventions the comparison's columns carry, for captions and documentation. */
export const BRANCH_COMPARISON_CONVENTIONS = 'relL2: mean over the evaluated split of ||pred - y|| / ||y||, on normalized fields and decoded (physical units); '
  + 'E: a branch contribution\'s shell energy (sum over the band\'s shells of sum_{floor|kappa|=k} |F c|^2 / N^2, summed over latent channels, averaged over samples); '
  + 'share: the branch\'s E over the block\'s summed branch E in that band (the shares of a band sum to 1)';

/**
 * Per variant, block and branch: the variant's relL2 (both conventions), the branch's share of the
 * block's branch energy per band and its energy per band (docs/diagnostics.md, per-branch spectra);
 * the column labels name the band edges.
 */
export function branchComparisonTable(variants: BranchVariant[]): DiagnosticsTable {
  const rows: TableRow[] = [];
  let edges = { iLow: 4, iHigh: 12 };
  for (const v of variants) {
    edges = v.branches.bands;
    v.branches.blocks.forEach((b, block) => {
      for (const k of b.components) {
        const s = b.bandShare[k]!, e = bandEnergies(b.spectra[k] ?? [], v.branches.bands);
        rows.push({ variant: v.variant, run: v.runId, relL2: v.relL2, relL2Decoded: v.relL2Decoded, block: block + 1, branch: k,
          shareLow: s.low, shareMid: s.mid, shareHigh: s.high, eLow: e.low, eMid: e.mid, eHigh: e.high });
      }
    });
  }
  const lo = `k<${edges.iLow}`, mid = `${edges.iLow}<=k<${edges.iHigh}`, hi = `k>=${edges.iHigh}`;
  return {
    name: 'branch-comparison',
    columns: [
      col('variant', 'variant', 'l'), col('run', 'run', 'l'), col('relL2', 'relL2 (normalized)'), col('relL2Decoded', 'relL2 (decoded)'), col('block'), col('branch', 'branch', 'l'),
      col('shareLow', `energy share low (${lo})`), col('shareMid', `energy share mid (${mid})`), col('shareHigh', `energy share high (${hi})`),
      col('eLow', `E low (${lo})`), col('eMid', `E mid (${mid})`), col('eHigh', `E high (${hi})`),
    ],
    rows,
  };
}
