// The one array type every reader, generator, writer and pipeline stage exchanges:
// a flat typed array in C (row-major) order plus its shape.
export type DType = 'float32' | 'float64' | 'int32' | 'int64' | 'uint8' | 'int8' | 'int16' | 'uint16' | 'uint32';

export type TypedArray =
  | Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array | Int8Array | Int16Array | Uint16Array | Uint32Array;

export interface NdArray {
  readonly dtype: DType;
  readonly shape: readonly number[];
  /** Row-major (C order) data; length = product of shape. */
  readonly data: TypedArray;
}

export function sizeOf(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function ndarray(data: TypedArray, shape: readonly number[], dtype?: DType): NdArray {
  const n = sizeOf(shape);
  if (data.length !== n) throw new Error(`ndarray: data has ${data.length} elements, shape [${shape.join(', ')}] needs ${n}`);
  return { data, shape: [...shape], dtype: dtype ?? dtypeOf(data) };
}

export function dtypeOf(data: TypedArray): DType {
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof Float64Array) return 'float64';
  if (data instanceof Int32Array) return 'int32';
  if (data instanceof BigInt64Array) return 'int64';
  if (data instanceof Uint8Array) return 'uint8';
  if (data instanceof Int8Array) return 'int8';
  if (data instanceof Int16Array) return 'int16';
  if (data instanceof Uint16Array) return 'uint16';
  return 'uint32';
}
