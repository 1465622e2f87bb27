// The Ablation view's branch-spectra comparison, its pure parts: band energies of a shell spectrum
// (PDEBench's edges), the table across variants (both relL2 conventions, shares, energies, the band
// edges in the column labels), the stacked share bars (one panel per band, a switched-off branch
// drawn as nothing) and the overlaid spectra (colour: branch; dash: variant).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bandEnergies, branchComparisonTable, type BranchVariant } from '../../../main/api/diagnostics-tables';
import { branchOverlayTraces, branchShareFigure } from '../../../renderer/src/plots/branch-comparison';
import { COMPONENT_COLORS } from '../../../renderer/src/plots/component-colors';

const bands = { iLow: 4, iHigh: 12 };
// 14 shells (a 29 x 29 grid): E(k) = k + 1
const spec = (scale: number) => Array.from({ length: 14 }, (_, k) => scale * (k + 1));
const full: BranchVariant = {
  variant: 'LiNO (full)', runId: 'r-full', relL2: 0.1, relL2Decoded: 0.2,
  branches: { grid: [29, 29], samples: 2, bands, blocks: [{
    components: ['reflection', 'refraction', 'scattering'],
    spectra: { reflection: spec(2), refraction: spec(1), scattering: spec(1) },
    bandShare: { reflection: { low: 0.5, mid: 0.5, high: 0.5 }, refraction: { low: 0.25, mid: 0.25, high: 0.25 }, scattering: { low: 0.25, mid: 0.25, high: 0.25 } },
  }] },
};
const noRefl: BranchVariant = {
  variant: 'LiNO w/o reflection', runId: 'r-nr', relL2: 0.3, relL2Decoded: 0.4,
  branches: { grid: [29, 29], samples: 2, bands, blocks: [{
    components: ['refraction', 'scattering'],
    spectra: { refraction: spec(3), scattering: spec(1) },
    bandShare: { refraction: { low: 0.75, mid: 0.75, high: 0.75 }, scattering: { low: 0.25, mid: 0.25, high: 0.25 } },
  }] },
};

test('bandEnergies sums the shells of each band; a band the grid lacks is null', () => {
  // 1+2+3+4 = 10; 5..12 = 68; 13+14 = 27
  assert.deepEqual(bandEnergies(spec(1), bands), { low: 10, mid: 68, high: 27 });
  assert.deepEqual(bandEnergies([1, 1, 1], bands), { low: 3, mid: null, high: null }, 'a 5 x 5 grid has shells 0..2 only');
});

test('branchComparisonTable: one row per variant, block and branch with both relL2 conventions, shares and energies; labels name the edges', () => {
  const t = branchComparisonTable([full, noRefl]);
  assert.equal(t.rows.length, 3 + 2);
  assert.deepEqual(t.rows.map((r) => `${r.variant}:${r.branch}`), ['LiNO (full):reflection', 'LiNO (full):refraction', 'LiNO (full):scattering', 'LiNO w/o reflection:refraction', 'LiNO w/o reflection:scattering']);
  assert.deepEqual(t.rows[3], { variant: 'LiNO w/o reflection', run: 'r-nr', relL2: 0.3, relL2Decoded: 0.4, block: 1, branch: 'refraction', shareLow: 0.75, shareMid: 0.75, shareHigh: 0.75, eLow: 30, eMid: 204, eHigh: 81 });
  const labels = t.columns.map((c) => c.label);
  assert.ok(labels.includes('relL2 (normalized)') && labels.includes('relL2 (decoded)'));
  assert.ok(labels.includes('energy share high (k>=12)') && labels.includes('E mid (4<=k<12)'), labels.join(' | '));
});

test('branchShareFigure: per band a panel of stacked bars, per branch a trace in its colour; a switched-off branch has no bar', () => {
  const f = branchShareFigure([full, noRefl], 0);
  assert.equal(f.data.length, 9);
  assert.equal(f.layout.barmode, 'stack');
  const high = f.data.filter((d) => d.xaxis === 'x3');
  assert.deepEqual(high.map((d) => d.name), ['reflection', 'refraction', 'scattering']);
  assert.deepEqual(high[0]!.y, [0.5, null], 'no reflection bar for the variant without it');
  assert.deepEqual(high[1]!.y, [0.25, 0.75]);
  assert.deepEqual(high.map((d) => (d.marker as { color: string }).color), [COMPONENT_COLORS.reflection, COMPONENT_COLORS.refraction, COMPONENT_COLORS.scattering]);
  assert.equal(f.data.filter((d) => d.showlegend).length, 3, 'one legend entry per branch');
  assert.match(JSON.stringify(f.layout), /high \(k ≥ 12\)/);
});

test('branchOverlayTraces: one line per variant and branch, colour by branch, dash by variant, zeros dropped', () => {
  const z = { ...noRefl, branches: { ...noRefl.branches, blocks: [{ ...noRefl.branches.blocks[0]!, spectra: { refraction: [0, 1], scattering: [2, 0] } }] } };
  const tr = branchOverlayTraces([full, z], 0);
  assert.deepEqual(tr.map((t) => t.name), ['LiNO (full) · reflection', 'LiNO (full) · refraction', 'LiNO (full) · scattering', 'LiNO w/o reflection · refraction', 'LiNO w/o reflection · scattering']);
  assert.deepEqual(tr.map((t) => (t.line as { dash: string }).dash), ['solid', 'solid', 'solid', 'dash', 'dash']);
  assert.equal((tr[3]!.line as { color: string }).color, COMPONENT_COLORS.refraction);
  assert.deepEqual(tr[3]!.y, [null, 1]);
  assert.deepEqual(tr[4]!.y, [2, null]);
});
