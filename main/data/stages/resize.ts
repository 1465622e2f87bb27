// Resizing of the spatial axes to a target resolution: linear (1D) / bilinear (2D) interpolation
// with torch.nn.functional.interpolate's align_corners=false semantics (sample centres, source
// index clamped at 0 and at the last sample), or FNO-style striding. Applied separably, one axis
// at a time, which equals the bilinear formula up to rounding.
import type { NdArray } from '../ndarray';
import { ndarray } from '../ndarray';
import { DataError } from '../formats/errors';

export type ResizeMode = 'interpolate' | 'stride';

interface AxisPlan { i0: Int32Array; i1: Int32Array; w1: Float64Array }

/** Source indices and weights for one axis, as torch computes them (scale = in / out). */
export function linearPlan(inSize: number, outSize: number): AxisPlan {
  const i0 = new Int32Array(outSize), i1 = new Int32Array(outSize), w1 = new Float64Array(outSize);
  const scale = inSize / outSize;
  for (let d = 0; d < outSize; d++) {
    let src = scale * (d + 0.5) - 0.5;
    if (src < 0) src = 0;
    const a = Math.floor(src);
    const lo = Math.min(a, inSize - 1);
    i0[d] = lo;
    i1[d] = lo < inSize - 1 ? lo + 1 : lo;
    w1[d] = lo < inSize - 1 ? src - lo : 0;
  }
  return { i0, i1, w1 };
}

/** FNO's subsampling: every `step`-th point from 0, step = floor((in - 1) / (out - 1)). */
export function stridePlan(inSize: number, outSize: number, field: string): AxisPlan {
  const step = outSize > 1 ? Math.floor((inSize - 1) / (outSize - 1)) : 1;
  if (outSize > inSize || step < 1 || (outSize - 1) * step > inSize - 1) {
    throw new DataError('', field, `cannot stride ${inSize} points down to ${outSize}`, `a target <= ${inSize} (use interpolation to upsample)`);
  }
  const i0 = new Int32Array(outSize), w1 = new Float64Array(outSize);
  for (let d = 0; d < outSize; d++) i0[d] = d * step;
  return { i0, i1: i0, w1 };
}

/** Resizes axis `axis` of C-order `data` (shape `shape`) with `plan`, into Float64Array. */
function resizeAxis(data: ArrayLike<number>, shape: number[], axis: number, plan: AxisPlan): { data: Float64Array; shape: number[] } {
  const outer = shape.slice(0, axis).reduce((a, b) => a * b, 1);
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const inSize = shape[axis], outSize = plan.i0.length;
  const out = new Float64Array(outer * outSize * inner);
  const { i0, i1, w1 } = plan;
  for (let o = 0; o < outer; o++) {
    const ib = o * inSize * inner, ob = o * outSize * inner;
    for (let d = 0; d < outSize; d++) {
      const a = ib + i0[d] * inner, b = ib + i1[d] * inner, w = w1[d], u = 1 - w, dst = ob + d * inner;
      if (w === 0) for (let k = 0; k < inner; k++) out[dst + k] = data[a + k];
      else for (let k = 0; k < inner; k++) out[dst + k] = u * data[a + k] + w * data[b + k];
    }
  }
  const s = [...shape];
  s[axis] = outSize;
  return { data: out, shape: s };
}

/**
 * Resizes the spatial axes (1..spatial.length) of `arr` ([N, ...spatial, ...trailing]) to `target`.
 * Returns float64 data; `upsampled` lists axes that grew (the caller warns).
 */
export function resizeSpatial(arr: NdArray, target: readonly number[], mode: ResizeMode = 'interpolate', field = 'resize'): { arr: NdArray; upsampled: number[] } {
  const nSpatial = target.length;
  if (arr.shape.length < 1 + nSpatial) throw new DataError('', field, `array of shape [${arr.shape.join(', ')}] has fewer than ${nSpatial} spatial axes`);
  let data: ArrayLike<number> = arr.data instanceof BigInt64Array ? Float64Array.from(arr.data, Number) : (arr.data as ArrayLike<number>);
  let shape = [...arr.shape];
  const upsampled: number[] = [];
  for (let k = 0; k < nSpatial; k++) {
    const axis = 1 + k;
    const inSize = shape[axis], outSize = target[k];
    if (!Number.isInteger(outSize) || outSize < 1) throw new DataError('', field, `target size ${outSize} is not a positive integer`);
    if (inSize === outSize) continue;
    if (outSize > inSize) upsampled.push(axis);
    const plan = mode === 'stride' ? stridePlan(inSize, outSize, field) : linearPlan(inSize, outSize);
    ({ data, shape } = resizeAxis(data, shape, axis, plan));
  }
  const f64 = data instanceof Float64Array ? data : Float64Array.from(data);
  return { arr: ndarray(f64, shape, 'float64'), upsampled };
}
