// Compare mode: the same sample from several runs in one grid (a reference row, then one row
// per run with its prediction and |error|), all predictions and the reference on ONE colour
// range and all errors on another, so colours mean the same value in every cell.
import { fieldAxes, heatmapTrace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { meshFieldTraces, meshLayout } from '../../plots/mesh-field';
import { absError } from '../../plots/abs-error';
import { compareFigure } from '../../plots/compare-figure';
import { sampleMesh, type FieldSample, type Figure } from './field-figures';

export interface CompareRow {
  runId: string;
  name: string;
  sample: FieldSample;
}

export interface CompareGrid {
  reference: Figure;
  rows: { runId: string; name: string; relL2: number; relL2Decoded: number; prediction: Figure; error: Figure }[];
  fieldRange: [number, number];
  errorRange: [number, number];
  /** The whole grid as one figure to export (regular grids; null on a mesh). */
  paper: ReturnType<typeof compareFigure> | null;
}

export function compareGrid(rows: CompareRow[], grid: number[], mesh: boolean, target = 'u'): CompareGrid | null {
  if (rows.length === 0 || grid.length !== 2) return null;
  const ref = rows[0]!.sample.reference[0]!;
  const errors = rows.map((r) => absError(r.sample.reference[0]!, r.sample.prediction[0]!));
  const fieldRange = sharedRange(ref, ...rows.map((r) => r.sample.prediction[0]!));
  const errorRange = sharedRange(...errors);
  const [nx, ny] = grid as [number, number];
  const m = mesh ? sampleMesh(rows[0]!.sample, grid) : null;
  const axes = { ...fieldAxes('domain'), margin: { l: 45, r: 10, t: 30, b: 40 } };
  const figure = (values: ArrayLike<number>, range: [number, number], kind: 'u' | 'err', title: string, id: string): Figure =>
    m
      ? { data: meshFieldTraces({ mesh: m, values, range, scale: kind === 'u' ? 'viridis' : 'cividis', colorbarTitle: kind === 'u' ? target : '|error|', id }), layout: meshLayout(m, title) }
      : { data: [heatmapTrace({ values, nx, ny, range, scale: kind === 'u' ? 'viridis' : 'cividis', colorbarTitle: kind === 'u' ? target : '|error|' })], layout: { ...axes, title } };
  return {
    reference: figure(ref, fieldRange, 'u', 'Reference', 'ref'),
    rows: rows.map((r, i) => ({
      runId: r.runId,
      name: r.name,
      relL2: r.sample.relL2,
      relL2Decoded: r.sample.relL2Decoded,
      prediction: figure(r.sample.prediction[0]!, fieldRange, 'u', `${r.name}: prediction`, `p${i}`),
      error: figure(errors[i]!, errorRange, 'err', `${r.name}: |error|`, `e${i}`),
    })),
    fieldRange,
    errorRange,
    paper: m ? null : compareFigure({ grid: [nx, ny], reference: ref, runs: rows.map((r, i) => ({ name: r.name, prediction: r.sample.prediction[0]!, error: errors[i]! })), fieldRange, errorRange, target }),
  };
}
