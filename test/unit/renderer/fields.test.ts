// Pure helpers of the Fields view and the mesh plots: linked zoom/hover, the resolution sweep
// table, mesh traces (a small synthetic C-grid), the panels of a sample and the compare grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hoveredNode, nodeMarkShapes, sameView, viewFromRelayout, withView } from '../../../renderer/src/views/fields/linked-view';
import { extraResolutions, parseResolutions, suggestedResolutions, sweepRows, SWEEP_COLUMNS } from '../../../renderer/src/views/fields/sweep-table';
import { isMeshDataset, meshFieldTraces, meshHoverTrace, meshFocus, meshLinesTraces, meshPreviewPlots, type Mesh } from '../../../renderer/src/plots/mesh-field';
import { samplePanels, withCaption, wrapCaption, type FieldSample, type Panels2D } from '../../../renderer/src/views/fields/field-figures';
import { effectiveSource, provenanceCaption, solvedChoice } from '../../../renderer/src/views/fields/transfer-choice';
import { compareGrid } from '../../../renderer/src/views/fields/compare-figures';
import { runData } from '../../../renderer/src/views/fields/run-data';
import { toCsv, toLatex } from '../../../renderer/src/export/table';
import type { EvaluationResult, WorkspaceSummary } from '../../../main/api/contract';

test('linked zoom: a zoom, a pan or an autoscale in one panel becomes the shared view; other relayouts do not propagate', () => {
  const zoom = viewFromRelayout(null, { 'xaxis.range[0]': 2, 'xaxis.range[1]': 6, 'yaxis.range[0]': 1, 'yaxis.range[1]': 5 });
  assert.deepEqual(zoom, { x: [2, 6], y: [1, 5] });
  // A pan of x only keeps the shared y.
  assert.deepEqual(viewFromRelayout(zoom!, { 'xaxis.range': [3, 7] }), { x: [3, 7], y: [1, 5] });
  // Double-click autoscale: back to every panel's own range.
  assert.equal(viewFromRelayout(zoom!, { 'xaxis.autorange': true, 'yaxis.autorange': true }), null);
  assert.deepEqual(viewFromRelayout(zoom!, { 'xaxis.autorange': true }), { y: [1, 5] });
  // A resize is no zoom.
  assert.equal(viewFromRelayout(zoom!, { autosize: true }), undefined);
  assert.equal(viewFromRelayout(null, { width: 400 }), undefined);
  assert.ok(sameView({ x: [2, 6], y: [1, 5] }, zoom!));
  assert.ok(!sameView(zoom!, { x: [2, 6] }));
  assert.ok(sameView(null, null) && !sameView(null, zoom!));
});

test('linked zoom: every panel is drawn with the shared ranges, keeping its own axis settings', () => {
  const layout = { title: 'Input', xaxis: { title: 'x index', scaleanchor: 'y' }, yaxis: { title: 'y index' } };
  assert.equal(withView(layout, null), layout);
  const z = withView(layout, { x: [2, 6], y: [1, 5] });
  assert.deepEqual(z.xaxis, { title: 'x index', scaleanchor: 'y', range: [2, 6], autorange: false });
  assert.deepEqual(z.yaxis, { title: 'y index', range: [1, 5], autorange: false });
  assert.deepEqual(withView(layout, { x: [0, 1] }).yaxis, layout.yaxis, 'an unzoomed axis is left alone');
  assert.equal(layout.xaxis.scaleanchor, 'y', 'the input layout is not modified');
});

test('linked hover: heatmap and mesh points map to one node, marked at the same place in every panel', () => {
  // A stored [12, 12] field drawn x across, y up: Plotly's [row, col] = [y, x]; node (x 3, y 2) = 3 * 12 + 2.
  const grid = { kind: 'grid' as const, ny: 12 };
  assert.equal(hoveredNode({ x: 3, y: 2, curveNumber: 0, pointNumber: [2, 3] }, grid), 38);
  assert.equal(hoveredNode({ x: 3, y: 2, curveNumber: 0, pointNumber: 0 }, grid), 38, 'from the coordinates when no [row, col]');
  assert.equal(hoveredNode(null, grid), null);
  const mesh = { kind: 'mesh' as const, x: [0, 1, 2], y: [5, 6, 7] };
  assert.equal(hoveredNode({ x: 1, y: 6, curveNumber: 2, pointNumber: 0, customdata: [1, 0.5] }, mesh), 1, 'the node the marker carries');
  assert.equal(hoveredNode({ x: 1, y: 6, curveNumber: 0, pointNumber: 0 }, mesh), null, 'not a node marker');
  const [h, v] = nodeMarkShapes(38, grid, 1);
  assert.deepEqual([h!.x0, h!.x1, h!.y0, h!.y1], [2, 4, 2, 2]);
  assert.deepEqual([v!.x0, v!.x1, v!.y0, v!.y1], [3, 3, 1, 3]);
  const [mh] = nodeMarkShapes(2, mesh, 0.5);
  assert.deepEqual([mh!.x0, mh!.x1, mh!.y0], [1.5, 2.5, 7]);
  assert.deepEqual(nodeMarkShapes(null, grid, 1), []);
});

const metrics = (relL2: number) => ({ mse: relL2 ** 2, relL2, relL2Decoded: relL2 * 2 });
const evaluation = (grids: number[][]): EvaluationResult => ({
  runId: 'r',
  checkpoint: 'best',
  epoch: 3,
  split: 'val',
  resolutions: grids.map((grid, i) => ({ grid, ...(i === 0 ? { origin: 'generated at s = 12' } : {}), n: 2, metrics: metrics(0.1 * (i + 1)), order: [0, 1], perSample: [], best: 0, median: 0, worst: 1 })),
});

test('resolution sweep: one row per evaluated grid (training first), exported as CSV and booktabs LaTeX', () => {
  const rows = sweepRows(evaluation([[12, 12], [6, 6]]));
  assert.deepEqual(rows, [
    { grid: '12×12', role: 'training', origin: 'generated at s = 12', relL2: 0.1, relL2Decoded: 0.2, n: 2 },
    { grid: '6×6', role: 'transfer', origin: '—', relL2: 0.2, relL2Decoded: 0.4, n: 2 },
  ], 'an evaluation cached before origins were recorded shows —');
  assert.equal(toCsv(SWEEP_COLUMNS, rows), 'Grid,Role,How the grid was made,relL2 (normalized),relL2 (decoded),Samples\r\n12×12,training,generated at s = 12,0.1,0.2,2\r\n6×6,transfer,—,0.2,0.4,2\r\n');
  const tex = toLatex(SWEEP_COLUMNS, rows, { caption: 'Resolution sweep' });
  assert.match(tex, /\\toprule\nGrid & Role & How the grid was made & relL2 \(normalized\) & relL2 \(decoded\) & Samples \\\\\n\\midrule\n12×12 & training & generated at s = 12 & 0\.1000 & 0\.2000 & 2 \\\\/);
});

test('resolution choice: suggested coarser/finer grids, typed lists validated, the training grid left out', () => {
  assert.deepEqual(suggestedResolutions(12), [6, 9, 18, 24]);
  assert.deepEqual(suggestedResolutions(85), [43, 64, 128, 170]);
  assert.deepEqual(suggestedResolutions(6), [5, 9, 12], 'no grid under 4 (6 / 2 = 3 is left out)');
  assert.deepEqual(parseResolutions(' 21, 43 43;85 '), { ok: true, values: [21, 43, 85] });
  assert.deepEqual(parseResolutions(''), { ok: true, values: [] });
  assert.deepEqual(parseResolutions('21, x'), { ok: false, error: "'x' is not a grid size (a whole number from 2 to 4096)" });
  assert.equal(parseResolutions('1').ok, false);
  assert.match((parseResolutions('2 3 4 5 6 7 8 9 10') as { error: string }).error, /at most 8/);
  assert.deepEqual(extraResolutions([6, 24], '12, 9 6', 12), [6, 9, 24]);
  assert.equal(extraResolutions([], 'bad', 12), null);
});

/** A small C-grid: rows i around a unit "body" and out along a wake cut, cols j from the wall outwards. */
function cGrid(rows = 21, cols = 5): Mesh {
  const x: number[] = [], y: number[] = [];
  const wake = 5;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const r = 1 + j;
      if (i < wake || i >= rows - wake) {
        // the wake: both sides meet on the cut (y = 0) at j = 0
        const s = i < wake ? -1 : 1;
        const k = i < wake ? wake - i : i - (rows - 1 - wake);
        x.push(1 + k * 2);
        y.push(s * j * 0.5);
      } else {
        const t = Math.PI * 2 * ((i - wake) / (rows - 1 - 2 * wake));
        x.push(0.5 + 0.5 * Math.cos(t) * r);
        y.push(-0.1 * Math.sin(t) * r);
      }
    }
  }
  return { x, y, rows, cols };
}

test('mesh field: carpet + contourcarpet on the node coordinates (2D, one row per mesh row) and a hover marker per node', () => {
  const mesh = cGrid();
  const values = Array.from(mesh.x, (v, k) => v + mesh.y[k]!);
  const [carpet, contour, hover] = meshFieldTraces({ mesh, values, range: [-1, 3], colorbarTitle: 'Mach', id: 'm' }) as Record<string, any>[];
  assert.equal(carpet!.type, 'carpet');
  assert.equal(carpet!.x.length, 21);
  assert.equal(carpet!.x[0].length, 5);
  assert.equal(carpet!.x[3][2], mesh.x[3 * 5 + 2]);
  assert.equal(carpet!.y[20][4], mesh.y[20 * 5 + 4]);
  assert.deepEqual([carpet!.a.length, carpet!.b.length], [5, 21]);
  assert.equal(contour!.type, 'contourcarpet');
  assert.equal(contour!.carpet, carpet!.carpet);
  assert.equal(contour!.z[3][2], values[17]);
  assert.deepEqual([contour!.zmin, contour!.zmax, contour!.contours.start, contour!.contours.end], [-1, 3, -1, 3]);
  assert.equal(contour!.colorscale[0][1], '#440154', 'viridis');
  assert.equal(hover!.type, 'scatter');
  assert.equal(hover!.x.length, 105, 'every node of a small mesh');
  assert.deepEqual(hover!.customdata[17], [17, values[17]]);
  // A large mesh (the airfoil's 221 x 51) gets every other row and column.
  const big: Mesh = { x: new Float64Array(221 * 51).map((_, k) => k), y: new Float64Array(221 * 51), rows: 221, cols: 51 };
  const h = meshHoverTrace(big, big.x) as Record<string, any>;
  assert.equal(h.x.length, 111 * 26);
  assert.deepEqual(h.customdata[27], [2 * 51 + 2, 2 * 51 + 2], 'row 2, column 2 (node 104) with its value');
  assert.throws(() => meshFieldTraces({ mesh, values: [1, 2] }), /values has 2 values for a 21x5 mesh/);
  const lines = meshLinesTraces(mesh, { step: 2 }) as Record<string, any>[];
  assert.deepEqual(lines.map((t) => t.type), ['carpet', 'scatter']);
  assert.equal(lines[0]!.aaxis.dtick, 2);
});

test('mesh focus: on a C-grid the body (wall nodes off the wake cut) padded; elsewhere the whole mesh', () => {
  const f = meshFocus(cGrid());
  // body: x in [0, 1], y in [-0.1, 0.1] (the wall row j = 0 of the rows around it)
  assert.ok(f.x[0] < 0 && f.x[0] > -1 && f.x[1] > 1 && f.x[1] < 2, `x ${f.x}`);
  assert.ok(f.y[0] < -0.1 && f.y[1] > 0.1, `y ${f.y}`);
  const square: Mesh = { x: [0, 1, 0, 1], y: [0, 0, 1, 1], rows: 2, cols: 2 };
  const g = meshFocus(square);
  assert.ok(g.x[0] <= 0 && g.x[1] >= 1 && g.y[0] <= 0 && g.y[1] >= 1);
});

test('mesh datasets: airfoil, or inputs named X, Y; the Datasets preview draws the mesh and the target on it', () => {
  assert.ok(isMeshDataset('airfoil', []));
  assert.ok(isMeshDataset('custom', ['X', 'Y']));
  assert.ok(!isMeshDataset('darcy', ['coeff']));
  assert.ok(!isMeshDataset(undefined, ['a']));
  const mesh = cGrid();
  const plots = meshPreviewPlots({ grid: [21, 5], index: 0, split: 'val', x: [{ name: 'X', values: mesh.x as number[] }, { name: 'Y', values: mesh.y as number[] }] }, { name: 'mach', values: mesh.x as number[] });
  assert.deepEqual(plots.map((p) => p.key), ['Input-mesh', 'Target-mach']);
  assert.deepEqual(plots[1]!.data.map((t) => t.type), ['carpet', 'contourcarpet', 'scatter']);
});

const sample = (ref: number[], pred: number[], input: number[][] = [ref.map((_, i) => i)], index = 0): FieldSample => ({ which: 'index', index, relL2: 0.5, relL2Decoded: 0.6, input, reference: [ref], prediction: [pred] });

test('sample panels: heatmaps with reference and prediction on one range; mesh samples on their mesh; 1D as lines', () => {
  const ref = [0, 1, 2, 3, 4, 5];
  const pred = [1, 1, 2, 3, 4, 9];
  const p = samplePanels(sample(ref, pred), [2, 3], false);
  assert.equal(p.oneD, false);
  if (p.oneD) return;
  const r = p.panels.reference.data[0] as Record<string, any>;
  const q = p.panels.prediction.data[0] as Record<string, any>;
  const e = p.panels.error.data[0] as Record<string, any>;
  assert.deepEqual([r.zmin, r.zmax], [0, 9]);
  assert.deepEqual([q.zmin, q.zmax], [0, 9]);
  // grid [2, 3]: x has 2 nodes, y 3; drawn row j holds y index j across x.
  assert.deepEqual(Array.from(e.z[2]), [0, 4]);
  assert.equal(e.z.length, 3);
  assert.deepEqual(p.placement, { kind: 'grid', ny: 3 });
  assert.equal((p.panels.reference.layout as Record<string, any>).yaxis.autorange, true, 'y upward');
  // Square cells by widening the range (constrain 'range'): every linked panel then draws the same ranges.
  assert.deepEqual([(p.panels.reference.layout as Record<string, any>).xaxis.constrain, (p.panels.reference.layout as Record<string, any>).yaxis.constrain], ['range', 'range']);
  assert.equal(r.colorbar?.title?.text ?? r.colorbar?.title, 'u', 'the target name, u by default');
  const named = samplePanels(sample(ref, pred), [2, 3], false, 'sol');
  if (!named.oneD) assert.equal(((named.panels.reference.data[0] as Record<string, any>).colorbar?.title?.text ?? (named.panels.reference.data[0] as Record<string, any>).colorbar?.title), 'sol', 'Darcy: sol, as the Datasets view says');
  assert.deepEqual((p.panels.input.layout as Record<string, any>).margin, (p.panels.error.layout as Record<string, any>).margin, 'one plot area for every panel');

  const mesh = cGrid();
  const n = mesh.rows * mesh.cols;
  const m = samplePanels(sample(Array(n).fill(1), Array(n).fill(2), [mesh.x as number[], mesh.y as number[]]), [21, 5], true);
  if (m.oneD) return assert.fail('2D');
  assert.deepEqual(m.panels.reference.data.map((t) => t.type), ['carpet', 'contourcarpet', 'scatter']);
  assert.deepEqual(m.panels.input.data.map((t) => t.type), ['carpet', 'scatter']);
  assert.equal(m.placement.kind, 'mesh');

  const l = samplePanels(sample([0, 1, 2], [0, 1, 3]), [3], false);
  assert.equal(l.oneD, true);
  if (!l.oneD) return;
  assert.deepEqual(l.lines.data.map((t) => t.name), ['reference', 'prediction', '|error|']);
});

test('compare grid: the reference row and per run prediction and |error|, one range for all fields and one for all errors', () => {
  const ref = [0, 1, 2, 3];
  const g = compareGrid([
    { runId: 'a', name: 'A', sample: sample(ref, [0, 1, 2, 5]) },
    { runId: 'b', name: 'B', sample: sample(ref, [-1, 1, 2, 3]) },
  ], [2, 2], false)!;
  assert.deepEqual(g.fieldRange, [-1, 5]);
  assert.deepEqual(g.errorRange, [0, 2]);
  const z = (f: { data: Record<string, unknown>[] }) => [f.data[0]!.zmin, f.data[0]!.zmax];
  assert.deepEqual(z(g.reference), [-1, 5]);
  for (const r of g.rows) {
    assert.deepEqual(z(r.prediction), [-1, 5]);
    assert.deepEqual(z(r.error), [0, 2]);
  }
  assert.deepEqual(g.rows.map((r) => r.name), ['A', 'B']);
  assert.equal(compareGrid([], [2, 2], false), null);
});

test('run data: runs on the same data spec compare; the benchmark comes from the spec or a stored dataset id', () => {
  const a = runData({ data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', resolution: 12 } });
  const b = runData({ data: { resolution: 12, preset: 'tiny', benchmark: 'darcy', kind: 'generate' }, model: { width: 8 } });
  const c = runData({ data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', resolution: 16 } });
  assert.equal(a.key, b.key, 'key order does not matter');
  assert.notEqual(a.key, c.key);
  assert.equal(a.benchmark, 'darcy');
  assert.equal(a.label, 'Darcy · tiny preset · s = 12');
  // a stored dataset by its name, as the other views show it, not by its hash id (the walk's compare list said 'dataset darcy-87999a76a5bd')
  const stored = { data: { kind: 'dataset', id: 'darcy-87999a76a5bd' }, resolvedData: { id: 'darcy-87999a76a5bd', grid: [29, 29], counts: { train: 14, val: 4, test: 2 } } };
  assert.equal(runData(stored).label, 'Darcy · s = 29 (2D) · 20 samples (14/4/2)');
  assert.equal(runData(stored, { 'darcy-87999a76a5bd': 'coarse' }).label, 'coarse — Darcy · s = 29 (2D) · 20 samples (14/4/2)');
  assert.doesNotMatch(runData({ data: { kind: 'dataset', id: 'darcy-87999a76a5bd' } }).label, /87999a76a5bd/);
  assert.equal(runData({ data: { kind: 'dataset', id: 'airfoil-b6e4ee468341' } }).benchmark, 'airfoil');
  assert.equal(runData({ data: { kind: 'synthetic', grid: [8, 8] } }).benchmark, undefined);
});

test('transfer source: solved is offered for generated data, refused with the reason for imported data; the caption says how the grid was made and which sample', () => {
  const ws = (datasets: WorkspaceSummary['datasets']): WorkspaceSummary => ({ path: '/ws', datasets, runs: [], exports: [], settings: { relL2Headline: 'normalized' } });
  const generated = ws([{ id: 'darcy-abc', name: 'Darcy' }]);
  const imported = ws([{ id: 'darcy-mat', name: 'Darcy', notSolvable: 'dataset darcy-mat was imported from piececonst.mat' }]);
  assert.deepEqual(solvedChoice({ data: { kind: 'dataset', id: 'darcy-abc' } }, generated), { ok: true });
  const no = solvedChoice({ data: { kind: 'dataset', id: 'darcy-mat' } }, imported);
  assert.deepEqual(no, { ok: false, why: 'dataset darcy-mat was imported from piececonst.mat' });
  assert.equal(effectiveSource('solved', no), 'resampled');
  assert.equal(effectiveSource('solved', { ok: true }), 'solved');
  assert.deepEqual(solvedChoice({ data: { kind: 'generate', benchmark: 'darcy' } }, null), { ok: true });
  assert.match((solvedChoice({ data: { kind: 'file', path: '/d/x.mat', benchmark: 'darcy' } }, null) as { why: string }).why, /from a file \(x\.mat\)/);
  assert.match((solvedChoice({ data: { kind: 'dataset', id: 'gone' } }, generated) as { why: string }).why, /gone is not in this workspace/);
  const res = { grid: [57, 57], origin: "solved at s = 57 by the generator (darcy 'tiny', generator seed 0; 2 validation samples, the same sample indices as at s = 29)", source: 'solved' as const, n: 2, metrics: { mse: 0, relL2: 0, relL2Decoded: 0 }, order: [], perSample: [], best: 0, median: 0, worst: 1 };
  const caption = provenanceCaption(res, false, { index: 1, sourceIndex: 4 });
  assert.equal(caption, `s = 57, ${res.origin}; validation sample 1 (source sample 4)`);
  assert.equal(provenanceCaption({ ...res, grid: [29, 29], origin: 'generated at s = 29' }, true, undefined), 's = 29 (training grid), generated at s = 29');
  // every panel (and so every PNG/SVG/PDF export of it) carries the caption under its title
  const sample: FieldSample = { which: 'median', index: 1, relL2: 0.1, relL2Decoded: 0.1, input: [[3, 12, 12, 3]], reference: [[1, 2, 3, 4]], prediction: [[1, 2, 3, 5]] };
  const f = withCaption(samplePanels(sample, [2, 2], false) as Panels2D, caption);
  for (const p of Object.values(f.panels)) {
    const t = (p.layout.title as { text: string }).text;
    assert.match(t, /solved at s = 57 by the generator/);
    assert.match(t, /source sample 4\)/);
    assert.ok(Number((p.layout.margin as { t: number }).t) > 30);
  }
  assert.deepEqual(wrapCaption('aaa bbb ccc', 7), ['aaa bbb', 'ccc']);
});
