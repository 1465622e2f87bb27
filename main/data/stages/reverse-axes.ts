// Reverses the axes of an array (numpy's a.T): a file stored in MATLAB's column-major order read
// as row-major comes out with its axes reversed, and this puts them back.
import { ndarray, type NdArray, type TypedArray } from '../ndarray';

export function reverseAxes(a: NdArray): NdArray {
  const shape = [...a.shape];
  const rank = shape.length;
  if (rank < 2) return a;
  const out = new (a.data.constructor as { new (n: number): TypedArray })(a.data.length);
  // strides of the source, read in the reversed order
  const stride = new Array<number>(rank);
  for (let k = rank - 1, s = 1; k >= 0; k--) { stride[k] = s; s *= shape[k]; }
  const oShape = [...shape].reverse();
  const oStride = [...stride].reverse();
  const idx = new Array<number>(rank).fill(0);
  const src = a.data as unknown as ArrayLike<number | bigint> & Record<number, number | bigint>;
  const dst = out as unknown as Record<number, number | bigint>;
  let off = 0;
  for (let i = 0; i < out.length; i++) {
    dst[i] = src[off];
    // odometer over the output index, last axis fastest
    for (let k = rank - 1; k >= 0; k--) {
      idx[k]++;
      off += oStride[k];
      if (idx[k] < oShape[k]) break;
      off -= oStride[k] * oShape[k];
      idx[k] = 0;
    }
  }
  return ndarray(out, oShape, a.dtype);
}

/** Moves axis `from` to the last position (time last, as the Navier-Stokes windows expect). */
export function moveAxisLast(a: NdArray, from: number): NdArray {
  const shape = [...a.shape];
  const rank = shape.length;
  if (from === rank - 1) return a;
  const outer = shape.slice(0, from).reduce((p, q) => p * q, 1);
  const T = shape[from];
  const inner = shape.slice(from + 1).reduce((p, q) => p * q, 1);
  const out = new (a.data.constructor as { new (n: number): TypedArray })(a.data.length);
  const src = a.data as unknown as Record<number, number | bigint>;
  const dst = out as unknown as Record<number, number | bigint>;
  for (let o = 0; o < outer; o++) for (let t = 0; t < T; t++) for (let i = 0; i < inner; i++) {
    dst[(o * inner + i) * T + t] = src[(o * T + t) * inner + i];
  }
  return ndarray(out, [...shape.slice(0, from), ...shape.slice(from + 1), T], a.dtype);
}

/** One index along `axis`, the axis removed. */
export function takeAlong(a: NdArray, axis: number, at: number): NdArray {
  const shape = [...a.shape];
  const outer = shape.slice(0, axis).reduce((p, q) => p * q, 1);
  const T = shape[axis];
  const inner = shape.slice(axis + 1).reduce((p, q) => p * q, 1);
  const out = new (a.data.constructor as { new (n: number): TypedArray })(outer * inner);
  for (let o = 0; o < outer; o++) {
    (out as Float64Array).set((a.data as Float64Array).subarray((o * T + at) * inner, (o * T + at + 1) * inner), o * inner);
  }
  return ndarray(out, [...shape.slice(0, axis), ...shape.slice(axis + 1)], a.dtype);
}
