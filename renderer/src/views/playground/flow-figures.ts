// The Playground's Navier-Stokes and airfoil panels. Navier-Stokes: w0 with its vortices
// marked, and at one rollout step the prediction, the truth (one colour range shared by the two)
// and |error|, as index heatmaps. Airfoil: the mesh, and prediction, truth and |error| on the C-grid
// as the Fields and Datasets views draw mesh data (plots/mesh-field.ts). Pure: the editors draw them.
import { heatmapTrace, type Trace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { meshFieldTraces, meshLayout, meshLinesTraces, type Mesh } from '../../plots/mesh-field';
import { absDiff } from '../../logic/playground-fields';
import { gridPanel, type PanelFigure } from './playground-figures';

export interface VortexMark { x: number; y: number; radius: number; strength: number }

/** w0 as a heatmap (diverging scale), each vortex's centre and radius marked in index units. */
export function vorticityFigure(w0: number[], n: number, vortices: VortexMark[], selected: number): PanelFigure {
  const marks: Trace[] = vortices.map((v, k) => ({
    type: 'scatter',
    mode: 'markers+text',
    x: [v.x * n],
    y: [v.y * n],
    text: [String(k + 1)],
    textposition: 'top center',
    marker: { size: Math.max(8, 2 * v.radius * 300), symbol: 'circle-open', line: { width: k === selected ? 3 : 1.5 }, color: k === selected ? '#d62728' : '#111' },
    hovertemplate: `vortex ${k + 1}: strength ${v.strength}, radius ${v.radius}<extra></extra>`,
    showlegend: false,
  }));
  return gridPanel('Initial vorticity w0 (click to move the selected vortex)', 'playground-w0', [heatmapTrace({ values: w0, nx: n, ny: n, scale: 'RdBu', name: 'w0', colorbarTitle: 'w' }), ...marks], n, n, { showlegend: false });
}

/** Prediction, truth and |error| at rollout step `step` (0-based) of frames on an n x n grid. */
export function stepPanels(n: number, prediction: number[][], truth: number[][] | null, step: number): PanelFigure[] {
  const p = prediction[step]!;
  const t = truth?.[step] ?? null;
  const range = t ? sharedRange(p, t) : sharedRange(p);
  const panels: PanelFigure[] = [gridPanel(`Prediction, step ${step + 1}`, 'playground-prediction', [heatmapTrace({ values: p, nx: n, ny: n, range, name: 'prediction', colorbarTitle: 'w' })], n, n)];
  if (t) {
    panels.push(gridPanel(`Truth (solver), step ${step + 1}`, 'playground-truth', [heatmapTrace({ values: t, nx: n, ny: n, range, name: 'truth', colorbarTitle: 'w' })], n, n));
    panels.push(gridPanel(`|Error|, step ${step + 1}`, 'playground-error', [heatmapTrace({ values: absDiff(p, t), nx: n, ny: n, scale: 'cividis', name: '|error|', colorbarTitle: '|error|' })], n, n));
  }
  return panels;
}

/** The last history frame the model was given (what it rolls on from). */
export function historyFigure(frame: number[], n: number, k: number): PanelFigure {
  return gridPanel(`Input: history frame ${k} (solver)`, 'playground-history', [heatmapTrace({ values: frame, nx: n, ny: n, scale: 'RdBu', name: 'history', colorbarTitle: 'w' })], n, n);
}

/** The mesh, then prediction, truth (shared range) and |error| on it. */
export function meshPanels(mesh: Mesh, prediction: number[] | null, truth: number[] | null, target = 'Mach'): PanelFigure[] {
  const layout = meshLayout(mesh);
  const panels: PanelFigure[] = [{ title: `Input: the ${mesh.rows} × ${mesh.cols} C-grid of this design`, testId: 'playground-mesh', data: meshLinesTraces(mesh, { id: 'pg-mesh', step: 2 }), layout }];
  const range = prediction && truth ? sharedRange(prediction, truth) : prediction ? sharedRange(prediction) : truth ? sharedRange(truth) : undefined;
  if (prediction) panels.push({ title: `Prediction (${target})`, testId: 'playground-prediction', data: meshFieldTraces({ mesh, values: prediction, range, id: 'pg-pred', colorbarTitle: target }), layout });
  if (truth) panels.push({ title: `Truth (${target}, solver)`, testId: 'playground-truth', data: meshFieldTraces({ mesh, values: truth, range, id: 'pg-truth', colorbarTitle: target }), layout });
  if (prediction && truth) panels.push({ title: '|Error|', testId: 'playground-error', data: meshFieldTraces({ mesh, values: absDiff(prediction, truth), scale: 'cividis', id: 'pg-err', colorbarTitle: '|error|' }), layout });
  return panels;
}

/**
 * The design element's 8 nodes over the airfoil's wall (the mesh's j = 0 line between the wake
 * cuts): upper nodes at the element's top edge (y = 0.1), lower at its bottom (y = -0.1), at the
 * Bernstein control abscissae 0, 1/3, 2/3, 1, each shifted by its displacement.
 */
export function designFigure(design: number[], wall: { x: number[]; y: number[] } | null): PanelFigure {
  const xs = [0, 1 / 3, 2 / 3, 1];
  const node = (k: number) => ({ x: xs[k % 4]!, y: (k < 4 ? 0.1 : -0.1) + design[k]! });
  const nodes = design.map((_, k) => node(k));
  const data: Trace[] = [
    ...(wall ? [{ type: 'scatter', mode: 'lines', x: wall.x, y: wall.y, name: 'airfoil', line: { color: '#444' } }] : []),
    { type: 'scatter', mode: 'markers+text', x: nodes.map((p) => p.x), y: nodes.map((p) => p.y), text: design.map((_, k) => `${k < 4 ? 'U' : 'L'}${(k % 4) + 1}`), textposition: 'top center', marker: { size: 10, color: '#d62728' }, name: 'design nodes' },
  ];
  return { title: 'Airfoil and its 8 design nodes', testId: 'playground-design', data, layout: { xaxis: { title: 'x', range: [-0.1, 1.1] }, yaxis: { title: 'y', range: [-0.22, 0.22], scaleanchor: 'x' }, margin: { l: 50, r: 10, t: 10, b: 40 }, showlegend: false } };
}

/** The wall line of a C-grid mesh: the first node of each row, rows `wake`..rows-1-wake (the airfoil itself). */
export function wallOf(mesh: Mesh): { x: number[]; y: number[] } {
  const x: number[] = [], y: number[] = [];
  for (let r = 0; r < mesh.rows; r++) {
    const k = r * mesh.cols;
    if (mesh.x[k]! <= 1.0001) { x.push(mesh.x[k]!); y.push(mesh.y[k]!); }
  }
  return { x, y };
}
