// Linked zoom and hover across the Fields panels (input, reference, prediction, |error|): a zoom
// in one panel becomes the shared view every panel is drawn with, and the hovered grid node is
// marked in all of them. Pure functions; the panels component holds the state.

export type Range = [number, number];
/** The shared axis ranges; null: every panel autoscaled. */
export type SharedView = { x?: Range; y?: Range } | null;

function axisRange(u: Record<string, unknown>, axis: 'xaxis' | 'yaxis'): Range | 'auto' | undefined {
  if (u[`${axis}.autorange`] === true) return 'auto';
  const whole = u[`${axis}.range`];
  if (Array.isArray(whole) && whole.length === 2) return [Number(whole[0]), Number(whole[1])];
  const a = u[`${axis}.range[0]`], b = u[`${axis}.range[1]`];
  if (a !== undefined && b !== undefined) return [Number(a), Number(b)];
  return undefined;
}

/**
 * The shared view after a panel's Plotly relayout update; `undefined` when the update is no zoom,
 * pan or autoscale (e.g. a resize), so nothing propagates.
 */
export function viewFromRelayout(prev: SharedView, u: Record<string, unknown>): SharedView | undefined {
  const x = axisRange(u, 'xaxis');
  const y = axisRange(u, 'yaxis');
  if (x === undefined && y === undefined) return undefined;
  const next: { x?: Range; y?: Range } = { ...(prev ?? {}) };
  if (x === 'auto') delete next.x;
  else if (x) next.x = x;
  if (y === 'auto') delete next.y;
  else if (y) next.y = y;
  return next.x || next.y ? next : null;
}

export function sameView(a: SharedView, b: SharedView): boolean {
  const eq = (p?: Range, q?: Range) => (!p && !q) || (!!p && !!q && p[0] === q[0] && p[1] === q[1]);
  return (a === null && b === null) || (a !== null && b !== null && eq(a.x, b.x) && eq(a.y, b.y));
}

type Layout = Record<string, any>;

/** A panel's layout drawn with the shared view (ranges fixed where zoomed, the panel's own elsewhere). */
export function withView(layout: Layout, view: SharedView): Layout {
  if (!view) return layout;
  const out: Layout = { ...layout };
  if (view.x) out.xaxis = { ...layout.xaxis, range: view.x, autorange: false };
  if (view.y) out.yaxis = { ...layout.yaxis, range: view.y, autorange: false };
  return out;
}

/**
 * Where a node is drawn: grid fields at (x index, y index) of a stored [nx, ny] field (plots/traces.ts
 * fieldZ: Plotly's [row, col] is [y, x]), meshes at the node's coordinates.
 */
export type NodePlacement = { kind: 'grid'; ny: number } | { kind: 'mesh'; x: ArrayLike<number>; y: ArrayLike<number> };

/** The flat (row-major, stored) node index under a hovered point, or null. */
export function hoveredNode(p: { curveNumber: number; pointNumber: number | number[]; x: number; y: number; customdata?: unknown } | null, placement: NodePlacement): number | null {
  if (!p) return null;
  if (placement.kind === 'grid') {
    if (Array.isArray(p.pointNumber)) return p.pointNumber[1]! * placement.ny + p.pointNumber[0]!;
    return Number.isFinite(p.x) && Number.isFinite(p.y) ? Math.round(p.x) * placement.ny + Math.round(p.y) : null;
  }
  // Mesh panels hover on the node markers, which carry [node index, value] (plots/mesh-field.ts).
  if (Array.isArray(p.customdata) && typeof p.customdata[0] === 'number') return p.customdata[0];
  return null;
}

/** (x index, y index) of stored node k of an [nx, ny] field. */
export function gridXY(k: number, ny: number): [number, number] {
  return [Math.floor(k / ny), k % ny];
}

/** A cross marking node k in a panel (layout shapes, redrawn without recomputing the traces). */
export function nodeMarkShapes(k: number | null, placement: NodePlacement, span: number): Layout[] {
  if (k === null) return [];
  const [cx, cy] = placement.kind === 'grid' ? gridXY(k, placement.ny) : [placement.x[k]!, placement.y[k]!];
  const line = { color: '#ff1f5b', width: 2 };
  return [
    { type: 'line', xref: 'x', yref: 'y', x0: cx - span, x1: cx + span, y0: cy, y1: cy, line },
    { type: 'line', xref: 'x', yref: 'y', x0: cx, x1: cx, y0: cy - span, y1: cy + span, line },
  ];
}
