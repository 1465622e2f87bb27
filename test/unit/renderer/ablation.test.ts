// The Ablation view's pure parts: variant configs and deterministic group names (ablation-plan),
// group aggregation, percent difference and the paper's reference (ablation-results), and the
// composed error-field figure with one shared colour axis (ablation-figure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrainConfig } from '../../../main/api/contract';
import { ablationKey, baseSeed, fullConfig, fullGroup, parseAblationGroup, variantComponents, variantConfig, variantGroup, VARIANTS, groupLabel, runBaseName } from '../../../renderer/src/logic/ablation-plan';
import { aggregateGroup, benchmarkOf, formatMeanStd, formatPercent, gridSamples, meanStd, medianSeedRun, MEDIAN_SEED_TEXT, paperReference, percentDiff } from '../../../renderer/src/logic/ablation-results';
import { ablationFigure } from '../../../renderer/src/plots/ablation-figure';
import { absError } from '../../../renderer/src/plots/abs-error';

const stored = TrainConfig.parse({
  name: 'darcy base',
  id: 'r_abc',
  createdAt: '2026-01-01T00:00:00Z',
  resolvedData: { grid: [8, 8] },
  seed: 7,
  data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny' },
  model: { width: 8, depth: 2, scattering: 'full' },
  epochs: 3,
});
const v = (k: string) => VARIANTS.find((x) => x.key === k)!;

test('group names derive from the base only: its seed group, else its id; runs of an ablation map back to it', () => {
  assert.equal(ablationKey({ id: 'r1', group: null }), 'r1');
  assert.equal(ablationKey({ id: 'r1', group: 'sweep-a' }), 'sweep-a');
  assert.equal(ablationKey({ id: 'r9', group: 'r1/no-scattering' }), 'r1');
  assert.equal(variantGroup('r1', 'no-reflection'), 'r1/no-reflection');
  assert.deepEqual(parseAblationGroup('a/b/no-refraction'), { key: 'a/b', variant: 'no-refraction' });
  assert.equal(parseAblationGroup('a/other'), null);
  assert.equal(parseAblationGroup(null), null);
  assert.ok(variantGroup(ablationKey({ id: 'x', group: 'g'.repeat(250) }), 'no-scattering').length <= 200);
});

test('variant configs: the base with exactly one component off, same everything else, as a named seed group; valid TrainConfigs', () => {
  for (const k of ['full', 'no-reflection', 'no-refraction', 'no-scattering']) {
    const c = variantConfig(stored as Record<string, unknown>, v(k), { key: 'r_abc', seed: 7 })!;
    const parsed = TrainConfig.parse(c);
    assert.equal(parsed.group, `r_abc/${k}`);
    assert.equal(parsed.name, `r_abc/${k}`);
    assert.equal(parsed.seed, 7);
    assert.equal(parsed.id, undefined, 'the run store gives the new run its id');
    assert.equal(parsed.resolvedData, undefined, 'recorded again on first start');
    const off = v(k).off;
    assert.deepEqual(parsed.model.components, ['reflection', 'refraction', 'scattering'].filter((x) => x !== off));
    assert.deepEqual({ ...parsed.model, components: null }, { ...stored.model, components: null });
    assert.deepEqual([parsed.data, parsed.epochs, parsed.optimizer], [stored.data, stored.epochs, stored.optimizer]);
  }
  // A component already off in the base has no "without" variant; nothing left is no model.
  assert.equal(variantComponents(['reflection', 'scattering'], v('no-refraction')), null);
  assert.equal(variantComponents(['scattering'], v('no-scattering')), null);
  assert.deepEqual(variantComponents(['reflection', 'scattering'], v('no-reflection')), ['scattering']);
});

test('ablation groups are keyed by the base run id but named and shown after the run\'s name ("darcy-a/full")', () => {
  const c = variantConfig(stored as Record<string, unknown>, v('full'), { key: '20261126-042037-7f0ac5', seed: 7, name: 'darcy-a' })!;
  assert.equal(c.group, '20261126-042037-7f0ac5/full');
  assert.equal(c.name, 'darcy-a/full');
  const runs = [{ id: '20261126-042037-7f0ac5', name: 'darcy-a' }, { id: 'r2', name: 'darcy-a/full (seed 7)' }];
  assert.equal(groupLabel('20261126-042037-7f0ac5/no-scattering', runs), 'darcy-a/no-scattering');
  assert.equal(groupLabel('sweep-lq2', runs), 'sweep-lq2', 'a plain seed group keeps its name');
  assert.equal(groupLabel('gone/full', runs), 'gone/full', 'base deleted: the key');
  assert.equal(runBaseName({ name: 'darcy-a (seed 43)' }), 'darcy-a');
  assert.equal(runBaseName({ name: 'darcy-a (seed 43)', baseName: 'darcy-a' }), 'darcy-a');
  assert.equal(groupLabel('g1/full', [{ id: 'g1', name: 'x (seed 42)' }]), 'x/full');
});

test('a run of the ablation plans the same variants: its missing component is put back', () => {
  const noScat = variantConfig(stored as Record<string, unknown>, v('no-scattering'), { key: 'r_abc', seed: 7 }) as Record<string, unknown>;
  const back = fullConfig(noScat, 'r_abc/no-scattering');
  assert.deepEqual((back.model as { components: string[] }).components, ['reflection', 'refraction', 'scattering']);
  assert.equal(fullConfig(stored as Record<string, unknown>, null), stored);
});

test("the full model's group: an existing <key>/full, else the base's own group when it has enough seeds, else <key>/full", () => {
  assert.deepEqual(fullGroup({ key: 'r1', groupSizes: new Map(), seeds: 3 }), { group: 'r1/full', reuse: false });
  assert.deepEqual(fullGroup({ key: 'g', groupSizes: new Map([['g', 3]]), seeds: 3 }), { group: 'g', reuse: true });
  assert.deepEqual(fullGroup({ key: 'g', groupSizes: new Map([['g', 2]]), seeds: 3 }), { group: 'g/full', reuse: false });
  assert.deepEqual(fullGroup({ key: 'g', groupSizes: new Map([['g', 5], ['g/full', 3]]), seeds: 3 }), { group: 'g/full', reuse: false });
  assert.equal(baseSeed({ seed: 7 }, []), 7);
  assert.equal(baseSeed({}, []), 42);
  assert.equal(baseSeed({ seed: 9 }, [4, 3, null]), 3);
});

test('aggregation: finished seeds only, mean ± sample std as runs.group reports it; percent difference to full', () => {
  const agg = aggregateGroup([
    { id: 'a', seed: 1, state: 'done', valRelL2: 0.1, valRelL2Decoded: 0.2 },
    { id: 'b', seed: 2, state: 'done', valRelL2: 0.3, valRelL2Decoded: 0.4 },
    { id: 'c', seed: 3, state: 'running', valRelL2: 9, valRelL2Decoded: 9 },
  ]);
  assert.equal(agg.done, 2);
  assert.equal(agg.total, 3);
  assert.deepEqual(agg.states, { done: 2, running: 1 });
  assert.ok(Math.abs(agg.valRelL2!.mean - 0.2) < 1e-15);
  assert.ok(Math.abs(agg.valRelL2!.std - Math.SQRT2 * 0.1) < 1e-15, 'n - 1 in the denominator');
  assert.deepEqual(meanStd([0.5]), { mean: 0.5, std: 0, n: 1 });
  assert.equal(meanStd([null, NaN]), null);
  assert.equal(aggregateGroup([]).valRelL2, null);
  assert.ok(Math.abs(percentDiff(6.31e-3, 5.91e-3)! - 6.768189509) < 1e-6);
  assert.equal(percentDiff(1, 0), null);
  assert.equal(percentDiff(null, 1), null);
  assert.equal(formatPercent(6.7682), '+6.77 %');
  assert.equal(formatPercent(-12.34), '-12.3 %');
  assert.equal(formatPercent(906.8), '+907 %');
  assert.equal(formatPercent(null), '—');
});

test("the paper's ablation (Darcy s = 85) is offered for Darcy runs only", () => {
  assert.equal(benchmarkOf(stored as Record<string, unknown>), 'darcy');
  assert.equal(benchmarkOf({ data: { kind: 'dataset', id: 'darcy-0123456789ab' } }), 'darcy');
  assert.equal(benchmarkOf({ data: { kind: 'dataset', id: 'navier-stokes-0123' } }), 'navier-stokes');
  assert.equal(benchmarkOf({ data: { kind: 'synthetic', grid: [8, 8] } }), null);
  assert.equal(paperReference('darcy')!.values['no-scattering'], 5.95e-2);
  assert.equal(paperReference('darcy')!.values.full, 5.91e-3);
  assert.equal(paperReference('burgers'), null);
  assert.deepEqual(gridSamples([{ which: 'best', index: 1 }, { which: 'median', index: 1 }, { which: 'worst', index: 0 }]), [
    { index: 1, label: 'best/median (#1)' },
    { index: 0, label: 'worst (#0)' },
  ]);
});

test('error-field figure: reference row + one row per variant, one column per sample, every error panel on one cividis axis from 0 to the largest error', () => {
  const ref = [Float64Array.from([0, 1, 2, 3, 4, 5]), Float64Array.from([1, 1, 1, 1, 1, 1])];
  const e1 = absError(ref[0]!, [0, 1, 2, 3, 4, 7]);
  assert.deepEqual(Array.from(e1), [0, 0, 0, 0, 0, 2]);
  assert.throws(() => absError(ref[0]!, [1]), /1 predicted values for 6/);
  const f = ablationFigure({ grid: [2, 3], samples: ['best (#0)', 'worst (#1)'], reference: ref, rows: [{ label: 'full', errors: [e1, Float64Array.from([0, 0, 0, 0, 0, 0.5])] }, { label: 'w/o scattering', errors: [Float64Array.from([3, 0, 0, 0, 0, 0]), null] }] });
  assert.equal(f.data.length, 2 + 2 + 1, 'a missing field leaves its panel empty');
  assert.deepEqual(f.errorRange, [0, 3]);
  const layout = f.layout as Record<string, any>;
  assert.equal(layout.coloraxis2.cmin, 0);
  assert.equal(layout.coloraxis2.cmax, 3);
  assert.equal(layout.coloraxis2.colorscale[0][1], '#00224e', 'cividis');
  assert.deepEqual([layout.coloraxis.cmin, layout.coloraxis.cmax], [0, 5]);
  assert.deepEqual(f.data.map((d) => d.coloraxis), ['coloraxis', 'coloraxis', 'coloraxis2', 'coloraxis2', 'coloraxis2']);
  assert.deepEqual(f.data.map((d) => `${d.xaxis}/${d.yaxis}`), ['x/y', 'x2/y2', 'x3/y3', 'x4/y4', 'x5/y5']);
  assert.deepEqual((f.data[0]!.z as Float64Array[]).map((r) => Array.from(r)), [[0, 3], [1, 4], [2, 5]], 'stored [x, y], drawn x across and y up');
  // Labels are annotations (text in SVG/PDF): 3 row labels, 2 column titles.
  assert.deepEqual(layout.annotations.map((a: { text: string }) => a.text), ['Reference', '|error| full', '|error| w/o scattering', 'best (#0)', 'worst (#1)']);
  // Panels do not overlap: rows go down, columns right.
  assert.ok(layout.yaxis.domain[0] > layout.yaxis3.domain[1]);
  assert.ok(layout.xaxis.domain[1] < layout.xaxis2.domain[0]);
  // The width at which square-pixel panels fill their cells grows with the columns and height.
  assert.ok(f.widthFor(600) > f.widthFor(300));
  const cell = (w: number, h: number) => ({ w: (w - 190 - 90) * (layout.xaxis.domain[1] - layout.xaxis.domain[0]), h: (h - 40) * (layout.yaxis.domain[1] - layout.yaxis.domain[0]) });
  const c = cell(f.widthFor(600), 600);
  assert.ok(Math.abs(c.w / c.h - 2 / 3) < 0.02, `a [2, 3] field's panel is 2 wide, 3 high (${c.w} x ${c.h})`);
});

test('1D error-field figure: lines, the error rows on one shared y range from 0, the reference row on its own', () => {
  const f = ablationFigure({ grid: [4], samples: ['best (#2)'], reference: [[1, 2, 3, 4]], rows: [{ label: 'full', errors: [[0, 0.1, 0.2, 0]] }, { label: 'w/o scattering', errors: [[0.5, 1, 0, 0]] }] });
  assert.deepEqual(f.data.map((d) => d.type), ['scatter', 'scatter', 'scatter']);
  assert.deepEqual(f.data[2]!.y, [0.5, 1, 0, 0]);
  const layout = f.layout as Record<string, any>;
  assert.equal(layout.coloraxis, undefined);
  assert.deepEqual(layout.yaxis2.range, layout.yaxis3.range, 'error rows share a range');
  assert.deepEqual(layout.yaxis2.range, [0, 1.05]);
  assert.ok(layout.yaxis.range[0] < 1 && layout.yaxis.range[1] > 4);
  assert.equal(f.widthFor(500), Infinity);
});

test('ablation table cells: mean ± std over seeds; one seed shows its value alone, not "± 0.0" (the closing walk\'s one-seed ablation)', () => {
  assert.equal(formatMeanStd(meanStd([0.5, 0.7])), '0.6000 ± 0.14');
  assert.equal(formatMeanStd(meanStd([0.7808])), '0.7808 (1 seed)');
  assert.equal(formatMeanStd(null), '—');
});

test('the error grid draws each variant\'s median seed (by best validation relL2), not its first; said in the caption', () => {
  const m = (seed: number, bestValRelL2: number | null, state = 'done') => ({ id: `r${seed}`, seed, state, bestValRelL2 });
  // first listed is seed 0 (the worst): the median of 0.30, 0.10, 0.20 is seed 2's 0.20
  assert.equal(medianSeedRun([m(0, 0.3), m(1, 0.1), m(2, 0.2)])!.seed, 2);
  // an even count: the lower middle one; a running seed does not count
  assert.equal(medianSeedRun([m(0, 0.4), m(1, 0.1), m(2, 0.2), m(3, 0.3), m(4, 0.05, 'running')])!.seed, 2);
  // ties by seed; one seed is itself; finished seeds without a value: the first finished
  assert.equal(medianSeedRun([m(5, 0.2), m(3, 0.2), m(4, 0.2)])!.seed, 4);
  assert.equal(medianSeedRun([m(7, 0.5)])!.seed, 7);
  assert.equal(medianSeedRun([m(1, null, 'running'), m(2, null)])!.seed, 2);
  assert.equal(medianSeedRun([m(1, 0.1, 'running')]), null);
  assert.match(MEDIAN_SEED_TEXT, /median seed .*best validation relL2/);
});
