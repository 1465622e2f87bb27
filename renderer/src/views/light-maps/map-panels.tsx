// The plots of the Light maps view: the selected block's map (or the depth strip) beside the input
// field, and the query point's scattering kernel. Clicking a map or the input picks the query point.
import { useMemo } from 'react';
import type { LightMapsResult } from '../../../../main/api/contract';
import { Plot, type HoverPoint } from '../../plots/plot';
import { useTraining } from '../../stores/training-store';
import { MAP_KINDS, blockMapTitle, depthStrip, kernelFigure, stripColumns, mapValues, meshInputFigure, overlayFigure, resultMesh, singleFigure, withQueryMark, stripWithQueryMarks, type MapKind } from '../../plots/light-map-traces';

interface Props {
  result: LightMapsResult;
  /** A block index, or 'all' for the depth strip. */
  block: number | 'all';
  kind: MapKind;
  /** Lay the map over the input (one panel) instead of beside it. */
  overlay?: boolean;
  onPick: (query: number[]) => void;
}

const labelOf = (k: MapKind) => MAP_KINDS.find((m) => m.key === k)!.label;

export function MapPanels({ result, block, kind, overlay = false, onPick }: Props) {
  const grid = result.grid;
  const mesh = useMemo(() => resultMesh(result), [result]);
  // heatmaps: x is the first grid axis, y the second (fieldZ); a curve: x is the index; on a mesh
  // the node under the pointer (its hover marker carries [node index, value]).
  const pick = (p: HoverPoint) => {
    if (!mesh) return onPick(grid.length === 1 ? [Math.round(p.x)] : [Math.round(p.x), Math.round(p.y)]);
    const node = Array.isArray(p.customdata) ? Number(p.customdata[0]) : NaN;
    if (Number.isInteger(node)) onPick([Math.floor(node / mesh.cols), node % mesh.cols]);
  };
  const map = useMemo(() => {
    if (block === 'all') return stripWithQueryMarks(depthStrip(result, kind), result, kind);
    const v = mapValues(result.blocks[block]!, kind);
    if (!v) return null;
    const title = blockMapTitle(labelOf(kind), block);
    // the query point marked on the map of every kind (the dominant branch's too), as on the kernel
    const fig = overlay ? overlayFigure(result, v, kind, `${title} over the input`) : singleFigure(v, grid, kind, title, mesh);
    return withQueryMark(fig, result.query, grid, overlay && grid.length === 1 ? null : v, mesh);
  }, [result, block, kind, grid, mesh, overlay]);
  const sideBySide = !(overlay && block !== 'all');
  const input = useMemo(() => withQueryMark(mesh ? meshInputFigure(mesh, 'Input: the mesh') : singleFigure(result.input[0]!, grid, 'latentNorm', 'Input field (channel 0, normalized)'), result.query, grid, result.input[0] ?? null, mesh), [result, grid, mesh]);
  const kernelBlock = block === 'all' ? 0 : block;
  const kernel = useMemo(() => {
    const b = result.blocks[kernelBlock]!;
    return result.query && b.kernel ? kernelFigure(b, grid, result.query, mesh) : null;
  }, [result, kernelBlock, grid, mesh]);
  const runName = useTraining((st) => st.runs.find((r) => r.id === result.runId)?.name ?? result.runId);
  const where = `${runName} · sample ${result.sample}`;
  const strip = block === 'all';
  const rows = Math.ceil(result.blocks.length / stripColumns(result.blocks.length));
  return (
    <>
      {/* The depth strip takes the whole width (its panels were cramped beside the input). */}
      {strip && map && <Plot testId="lightmap-plot" title={`${labelOf(kind)} depth strip (${where})`} data={map.data} layout={map.layout} height={60 + 260 * rows} onClick={pick} />}
      <div className="plot-grid">
        {strip ? null : map ? (
          <Plot testId="lightmap-plot" title={`${labelOf(kind)} block ${(block as number) + 1} (${where})`} data={map.data} layout={map.layout} height={360} onClick={pick} />
        ) : (
          <p className="muted" data-testid="lightmap-absent">Block {(block as number) + 1} has this branch switched off: no {labelOf(kind).toLowerCase()}.</p>
        )}
        {sideBySide && <Plot testId="lightmap-input" title={`Input field (${where})`} data={input.data} layout={input.layout} height={360} onClick={pick} />}
      </div>
      {result.query && !kernel && <p className="muted">Block {kernelBlock + 1} has no scattering branch: no kernel.</p>}
      {kernel && result.query && (
        <>
          <Plot testId="lightmap-kernel" title={`Scattering kernel of point [${result.query.join(', ')}], block ${kernelBlock + 1} (${where})`} data={kernel.data} layout={kernel.layout} height={360} onClick={pick} />
          <p className="muted small" data-testid="kernel-weight-note">
            Kernel weight K(x_q, x): how much of the scattered light arriving at the query point x_q comes from point x, one row of the block&apos;s global scattering kernel (full scattering: the softmax row with its positional bias; efficient: (1 − β) times the normalized global weights). With efficient scattering the squares mark the local neighbourhood, weighted β.
          </p>
        </>
      )}
    </>
  );
}
