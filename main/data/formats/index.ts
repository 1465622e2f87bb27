// Opens any supported data file: sniffs the format from its bytes (each format module's match(),
// ./sniff.ts) and lets that module open it.
import { formatNamed, sniffFile } from './sniff';
import type { DataFile } from './types';

export async function openDataFile(path: string): Promise<DataFile> {
  const s = sniffFile(path);
  return formatNamed(s.format).open(path, s);
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
