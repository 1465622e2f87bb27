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
