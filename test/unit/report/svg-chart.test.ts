// The report's hand-written SVG charts: ticks that read apart, log axes that skip what they cannot
// draw, a chart with nothing to draw that says so, and text that cannot break out of the markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_POINTS, lineChartSvg, tickLabel } from '../../../main/report/svg-chart';
import { tableHtml } from '../../../main/report/report-page';

const labels = (svg: string) => [...svg.matchAll(/text-anchor="end">([^<]+)</g)].map((m) => m[1]);

test('a constant learning rate gets y ticks that all read differently', () => {
  const svg = lineChartSvg({ title: 'lr', xLabel: 'epoch', yLabel: 'lr', series: [{ name: 'lr', points: [[1, 1e-3], [2, 1e-3], [3, 1e-3]] }] });
  const ys = labels(svg);
  assert.equal(ys.length, 5);
  assert.equal(new Set(ys).size, ys.length, ys.join(' '));
  assert.equal(tickLabel(1.05e-3), '1.05e-3');
});

test('a log axis leaves out values <= 0 and ticks each power of ten', () => {
  const svg = lineChartSvg({ title: 't', xLabel: 'x', yLabel: 'y', logY: true, series: [{ name: 's', points: [[1, 0], [2, 1e-3], [3, 1e-1], [4, -1]] }] });
  assert.deepEqual(labels(svg), ['1.00e-3', '0.01', '0.1']);
  assert.equal((svg.match(/<polyline points="([^"]+)"/)?.[1] ?? '').split(' ').length, 2, 'two drawable points');
});

test('nothing to draw says "no data"; titles and names are escaped', () => {
  const svg = lineChartSvg({ title: 'a <b> & "c"', xLabel: 'x', yLabel: 'y', series: [{ name: '<s>', points: [] }] });
  assert.match(svg, /no data/);
  assert.ok(svg.includes('a &lt;b&gt; &amp; &quot;c&quot;') && svg.includes('&lt;s&gt;'));
  assert.doesNotMatch(svg, /<b>|<s>/);
});

test('a table names its relL2 conventions under it and prints integers whole', () => {
  const html = tableHtml([{ key: 'c', label: 'config' }, { key: 'n', label: 'val relL2 (normalized)' }, { key: 'd', label: 'val relL2 (decoded)' }], [{ c: 0, n: 0.5, d: { mean: 0.25, std: 0.01 } }]);
  assert.match(html, /<td class="num">0<\/td>/);
  assert.match(html, /0\.2500 ± 0\.010/);
  assert.match(html, /normalized: on the normalized fields[^<]*decoded: on the decoded fields/);
});

test('a long run is thinned to MAX_POINTS, its spike, first and last point kept', () => {
  const pts: [number, number][] = Array.from({ length: 100_000 }, (_, i) => [i, 1 + (i === 54_321 ? 100 : 0)]);
  const svg = lineChartSvg({ title: 'loss', xLabel: 'step', yLabel: 'loss', series: [{ name: 'loss', points: pts }] });
  const drawn = (svg.match(/<polyline points="([^"]+)"/)?.[1] ?? '').split(' ').map((p) => p.split(',').map(Number));
  assert.ok(drawn.length <= MAX_POINTS + 2 && drawn.length > MAX_POINTS / 2, `${drawn.length} points`);
  assert.equal(Math.min(...drawn.map((p) => p[1]!)), 44, 'the one-step spike reaches the top of the plot (y = 44 px)');
  assert.equal(drawn[0]![0], 72, 'starts at the first step');
  assert.ok(svg.length < 60_000, `${svg.length} characters`);
});
