// Opens any supported data file: sniffs the format from its bytes and dispatches to its module.
import { basename } from 'node:path';
import { AirfoilFiles } from './geofno-airfoil';
import { Hdf5File } from './hdf5';
import { Mat5File } from './mat5';
import { Mat73File, hasMatlabClasses } from './mat73';
import { NpyFile } from './npy';
import { NpzFile } from './npz';
import { sniffFile } from './sniff';
import type { DataFile } from './types';

export async function openDataFile(path: string): Promise<DataFile> {
  const s = sniffFile(path);
  switch (s.format) {
    case 'npy': return new NpyFile(path, basename(path).replace(/\.npy$/i, ''));
    case 'npz': return new NpzFile(path);
    case 'mat5': return new Mat5File(path);
    case 'mat73': return Mat73File.open(path);
    // MATLAB-class attributes without MATLAB's header: still a MATLAB file (axes reversed)
    case 'hdf5': return (await hasMatlabClasses(path)) ? Mat73File.open(path) : Hdf5File.open(path);
    case 'geofno-airfoil': return new AirfoilFiles(path);
  }
}

/** The file browser's listing: format and variables (name, shape, dtype, size), nothing loaded. */
export async function inspectDataFile(path: string): Promise<{ path: string; format: string; variables: ReturnType<DataFile['variables']> }> {
  const f = await openDataFile(path);
  try {
    return { path, format: f.format, variables: f.variables() };
  } finally {
    f.close();
  }
}

export { DataError } from './errors';
export type { DataFile, FormatName, VariableInfo } from './types';
export { sniffFile, sniffBytes } from './sniff';
export { writeNpy } from './npy';
export { writeMat73 } from './mat73';
