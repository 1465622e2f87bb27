// Pure plot helpers: the min/max downsampler, colour scales and ranges, themed layouts, traces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minMaxDownsample, indexAxis } from '../../../renderer/src/plots/downsample';
import { COLOR_SCALES, colorScale, sharedRange, symmetricRange } from '../../../renderer/src/plots/colorscales';
import { themedLayout, PLOT_COLORS } from '../../../renderer/src/plots/theme';
import { fieldAxes, fieldNode, fieldZ, heatmapTrace, lineTrace } from '../../../renderer/src/plots/traces';

function noisyCurve(n: number, seed = 1): { x: number[]; y: number[] } {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const x = indexAxis(n);
  const y = x.map((i) => Math.exp(-i / (n / 5)) + 0.05 * rnd());
  return { x, y };
}

test('downsampler: 100k points drawn in 1000 buckets keep every bucket extreme and the end points', () => {
  const { x, y } = noisyCurve(100_000);
  y[31_337] = 5; // a spike
  y[77_001] = -3; // a dip
  const yCopy = y.slice();
  const d = minMaxDownsample(x, y, 1000);
  assert.ok(d.x.length <= 2 * 1000 + 2, `${d.x.length} points`);
  assert.ok(d.x.length >= 1000, 'at least one point per bucket');
  assert.deepEqual(y, yCopy, 'the stored data is not modified');
  assert.equal(d.x[0], 0);
  assert.equal(d.x[d.x.length - 1], 99_999);
  assert.ok(d.x.includes(31_337) && d.y.includes(5), 'the spike survives');
  assert.ok(d.x.includes(77_001) && d.y.includes(-3), 'the dip survives');
  for (let i = 1; i < d.x.length; i++) assert.ok(d.x[i]! > d.x[i - 1]!, 'x stays strictly increasing');
  // every kept point is an original point
  for (let i = 0; i < d.x.length; i++) assert.equal(d.y[i], y[d.x[i]!]);
  // per bucket, min and max of the original are present
  const n = x.length;
  for (let k = 0; k < 1000; k += 97) {
    const start = Math.max(1, Math.floor((k * n) / 1000));
    const end = Math.floor(((k + 1) * n) / 1000);
    const seg = y.slice(start, end);
    const kept = d.y.filter((_, i) => d.x[i]! >= start && d.x[i]! < end);
    assert.ok(kept.includes(Math.min(...seg)) && kept.includes(Math.max(...seg)), `bucket ${k}`);
  }
});

test('downsampler: short series come back unchanged; NaN buckets leave a gap; mismatched lengths are refused', () => {
  assert.deepEqual(minMaxDownsample([1, 2, 3], [4, 5, 6], 10), { x: [1, 2, 3], y: [4, 5, 6] });
  const x = indexAxis(1000);
  const y = x.map((i) => (i >= 400 && i < 600 ? Number.NaN : i));
  const d = minMaxDownsample(x, y, 10);
  const gaps = d.y.filter((v) => Number.isNaN(v)).length;
  assert.equal(gaps, 2, 'one NaN per all-NaN bucket');
  assert.ok(d.y.filter((v) => !Number.isNaN(v)).every((v) => v < 400 || v >= 600));
  assert.throws(() => minMaxDownsample([1, 2], [1], 4), /x has 2 points, y has 1/);
});

test('colour scales: viridis, cividis, RdBu are valid Plotly scales; RdBu runs blue (negative) to red (positive)', () => {
  for (const [name, s] of Object.entries(COLOR_SCALES)) {
    assert.equal(s[0]![0], 0, name);
    assert.equal(s[s.length - 1]![0], 1, name);
    for (let i = 1; i < s.length; i++) assert.ok(s[i]![0] > s[i - 1]![0], name);
    for (const [, c] of s) assert.match(c, /^#[0-9a-f]{6}$/, name);
  }
  const rdbu = colorScale('RdBu');
  const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [r0, , b0] = rgb(rdbu[0]![1]);
  const [r1, , b1] = rgb(rdbu[rdbu.length - 1]![1]);
  assert.ok(b0! > r0! && r1! > b1!);
  assert.throws(() => colorScale('jet' as never), /unknown colour scale 'jet'/);
});

test('ranges: shared over fields, symmetric around zero for signed errors, never empty', () => {
  assert.deepEqual(sharedRange([1, 2, NaN], [0.5, Infinity, 3]), [0.5, 3]);
  assert.deepEqual(symmetricRange([-0.2, 0.1]), [-0.2, 0.2]);
  assert.deepEqual(sharedRange([2, 2]), [1.5, 2.5]);
  assert.deepEqual(sharedRange([NaN]), [0, 1]);
});

test('themed layouts: colours follow the theme, the caller keeps its titles and axis types', () => {
  const l = themedLayout('dark', { title: 'Loss', xaxis: { title: 'Epoch' }, yaxis: { title: 'relL2', type: 'log' } });
  assert.equal(l.paper_bgcolor, PLOT_COLORS.dark.bg);
  assert.equal(l.font.color, PLOT_COLORS.dark.fg);
  assert.deepEqual(l.title, { text: 'Loss' });
  assert.deepEqual(l.xaxis.title, { text: 'Epoch' });
  assert.equal(l.yaxis.type, 'log');
  assert.equal(l.yaxis.gridcolor, PLOT_COLORS.dark.grid);
  assert.notEqual(themedLayout('light').paper_bgcolor, l.paper_bgcolor);
  // a log axis labels its ticks with whole values ("0.5", not a bare "5" between decades)
  assert.equal(l.yaxis.tickformat, '~g');
  assert.equal(l.xaxis.tickformat, undefined, 'a linear axis keeps Plotly\'s labels');
  assert.equal(themedLayout('light', { yaxis: { type: 'log', tickformat: '.0e' } }).yaxis.tickformat, '.0e', 'an axis\'s own format wins');
});

test('traces: a stored [x, y] field drawn with x across and y upward (z[j][i] = field[i][j]), labelled axes, the named scale; lines downsampled', () => {
  // Field [nx = 3, ny = 2]: f[i][j] = 2 i + j + 1.
  const h = heatmapTrace({ values: [1, 2, 3, 4, 5, 6], nx: 3, ny: 2, scale: 'cividis' });
  assert.deepEqual((h.z as ArrayLike<number>[]).map((r) => Array.from(r)), [[1, 3, 5], [2, 4, 6]]);
  assert.deepEqual(fieldZ([1, 2, 3, 4, 5, 6], 3, 2).map((r) => Array.from(r)), [[1, 3, 5], [2, 4, 6]]);
  assert.equal(fieldNode(2, 1, 2), 5, 'node (x 2, y 1) is the last stored value');
  assert.deepEqual(fieldAxes().yaxis, { title: 'y index', autorange: true, constrain: 'domain' }, 'y upward, never reversed');
  assert.equal(fieldAxes().xaxis.title, 'x index');
  assert.equal(h.colorscale, COLOR_SCALES.cividis);
  assert.deepEqual([h.zmin, h.zmax], [1, 6]);
  const e = heatmapTrace({ values: [-1, 0.5], nx: 2, ny: 1, scale: 'RdBu' });
  assert.deepEqual([e.zmin, e.zmax], [-1, 1]);
  assert.throws(() => heatmapTrace({ values: [1, 2, 3], nx: 2, ny: 2 }), /3 values for a 2x2 grid/);
  const l = lineTrace({ y: noisyCurve(50_000).y, buckets: 500 });
  assert.ok((l.x as number[]).length <= 1002);
});
