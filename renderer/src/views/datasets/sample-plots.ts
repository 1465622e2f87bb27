// A dataset sample's preview figures: input and target as lines (1D grids), heatmaps (2D grids)
// or mesh scatter plots (airfoil). Pure.
import type { DatasetSample } from '../../../../main/api/contract';
import { fieldAxes, heatmapTrace, lineTrace, type Trace } from '../../plots/traces';
import { isMeshDataset, meshPreviewPlots } from '../../plots/mesh-field';

export interface PreviewPlot {
  key: string;
  title: string;
  data: Trace[];
  layout: Record<string, unknown>;
}

/** The figures for input channel `xc` and target channel `yc` of a sample. */
export function samplePlots(sample: DatasetSample, xc: number, yc: number): PreviewPlot[] {
  const x = sample.x[Math.min(xc, sample.x.length - 1)];
  const y = sample.y[Math.min(yc, sample.y.length - 1)];
  if (!x || !y) return [];
  if (sample.grid.length === 1) {
    const data: Trace[] = [lineTrace({ y: x.values, name: `input ${x.name}` }), lineTrace({ y: y.values, name: `target ${y.name}` })];
    return [{ key: 'lines', title: `Sample ${sample.index} (${sample.split}): input and target`, data, layout: { xaxis: { title: 'Grid point' }, yaxis: { title: 'Value' } } }];
  }
  if (sample.grid.length === 2 && sample.x.length >= 2 && isMeshDataset(sample.benchmark, sample.x.map((c) => c.name))) return meshPreviewPlots(sample, y);
  const [nx, ny] = [sample.grid[0]!, sample.grid[1]!];
  // The same orientation as every other field plot (plots/traces.ts fieldZ).
  const panel = (c: { name: string; values: number[] }, role: string, scale: 'viridis' | 'cividis') => ({
    key: `${role}-${c.name}`,
    title: `${role} ${c.name}, sample ${sample.index} (${sample.split})`,
    data: [heatmapTrace({ values: c.values, nx, ny, scale, colorbarTitle: c.name })],
    layout: { ...fieldAxes('domain'), margin: { l: 50, r: 10, t: 36, b: 40 } },
  });
  return [panel(x, 'Input', 'viridis'), panel(y, 'Target', 'viridis')];
}
