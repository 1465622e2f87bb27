// What every format module exposes: a listing of variables (name, shape, dtype, size) before
// anything is loaded, full reads, and reads of a range of rows along the first axis for lazy,
// batch-wise access to files larger than memory.
import type { DType, NdArray } from '../ndarray';

export type FormatName = 'npy' | 'npz' | 'mat5' | 'mat73' | 'hdf5' | 'geofno-airfoil';

export interface VariableInfo {
  /** Variable name (MAT/npz key, HDF5 dataset path, airfoil X/Y/Q/mach). */
  name: string;
  /** Shape in row-major (C) order, as numpy/MATLAB users see it. */
  shape: number[];
  /** dtype the reader returns. */
  dtype: DType;
  /** Size in bytes once loaded. */
  bytes: number;
  /** Set when the variable is listed but cannot be loaded (cell, struct, char, complex...). */
  unsupported?: string;
  /** Format-specific note (stored type, compression, byte order). */
  note?: string;
}

export interface DataFile {
  readonly format: FormatName;
  readonly path: string;
  variables(): VariableInfo[];
  read(name: string): Promise<NdArray>;
  /** Rows [start, start + count) along axis 0 (samples), shape [count, ...rest]. */
  readRows(name: string, start: number, count: number): Promise<NdArray>;
  close(): void;
}

/** What a format found in a file's first bytes. */
export interface FormatMatch {
  format: FormatName;
  /** mat5: byte order. */
  bigEndian?: boolean;
  /** hdf5/mat73: offset of the HDF5 superblock. */
  superblockOffset?: number;
}

/**
 * A format module's entry (Netron's pattern: each reader recognises its own files). `match` gets
 * the first bytes (at least 520 where the file has them) and answers null for another format's
 * file, or throws a DataError for a file of its own it refuses (an unsupported version).
 */
export interface DataFormat {
  readonly name: FormatName;
  match(head: Uint8Array, file: string): FormatMatch | null;
  open(path: string, m: FormatMatch): DataFile | Promise<DataFile>;
}

export const DTYPE_BYTES: Record<DType, number> = {
  float32: 4, float64: 8, int32: 4, int64: 8, uint8: 1, int8: 1, int16: 2, uint16: 2, uint32: 4,
};
