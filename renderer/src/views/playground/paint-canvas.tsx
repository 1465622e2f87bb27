// The paintable input: the coefficient drawn on a canvas in the Fields view's orientation (x across,
// y upward) and colours (viridis over the shared range); a press or drag paints at the pointer.
import { useEffect, useRef } from 'react';
import { COLOR_SCALES } from '../../plots/colorscales';

const SIZE = 300;

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)) as [number, number, number];
}
const STOPS = COLOR_SCALES.viridis.map(([t, c]) => [t, rgb(c)] as const);

/** viridis at t in [0, 1], linear between the stops. */
function colour(t: number): [number, number, number] {
  const u = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  for (let k = 1; k < STOPS.length; k++) {
    const [t1, c1] = STOPS[k]!;
    const [t0, c0] = STOPS[k - 1]!;
    if (u <= t1) {
      const f = (u - t0) / (t1 - t0 || 1);
      return [0, 1, 2].map((d) => Math.round(c0[d]! + f * (c1[d]! - c0[d]!))) as [number, number, number];
    }
  }
  return STOPS[STOPS.length - 1]![1] as [number, number, number];
}

export interface PaintCanvasProps {
  values: number[];
  nx: number;
  ny: number;
  range: [number, number];
  /** Paint at node (i, j) (x index, y index). */
  onPaint(i: number, j: number): void;
}

export function PaintCanvas({ values, nx, ny, range, onPaint }: PaintCanvasProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const down = useRef(false);
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx) return;
    const img = ctx.createImageData(nx, ny);
    for (let i = 0; i < nx; i++) for (let j = 0; j < ny; j++) {
      const [r, g, b] = colour((values[i * ny + j]! - range[0]) / (range[1] - range[0] || 1));
      const p = ((ny - 1 - j) * nx + i) * 4;
      img.data[p] = r; img.data[p + 1] = g; img.data[p + 2] = b; img.data[p + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
  }, [values, nx, ny, range]);
  const at = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const i = Math.floor(((e.clientX - box.left) / box.width) * nx);
    const j = ny - 1 - Math.floor(((e.clientY - box.top) / box.height) * ny);
    if (i >= 0 && i < nx && j >= 0 && j < ny) onPaint(i, j);
  };
  return (
    <canvas
      ref={ref}
      width={nx}
      height={ny}
      data-testid="playground-canvas"
      aria-label="Input coefficient: press and drag to paint"
      style={{ width: SIZE, height: SIZE, imageRendering: 'pixelated', cursor: 'crosshair', touchAction: 'none', border: '1px solid var(--border)' }}
      onPointerDown={(e) => { down.current = true; e.currentTarget.setPointerCapture?.(e.pointerId); at(e); }}
      onPointerMove={(e) => { if (down.current) at(e); }}
      onPointerUp={() => { down.current = false; }}
      onPointerLeave={() => { down.current = false; }}
    />
  );
}
