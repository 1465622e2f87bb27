// Detects a file's format from its first bytes (never from its extension: a `.mat` may be v5 or
// v7.3 and users rename files freely) by asking each format module's match() in turn, as Netron
// does; the first that claims the bytes wins. Adding a format is one entry in FORMATS.
import { closeSync, readSync, statSync } from 'node:fs';
import { DataError } from './errors';
import { openRegularFile } from './regular-file';
import type { DataFormat, FormatMatch, FormatName } from './types';
import { errorMessage } from '../../util/error-message';
import { npyFormat } from './npy';
import { npzFormat } from './npz';
import { mat73Format } from './mat73';
import { mat5Format } from './mat5';
import { hdf5Format } from './hdf5';
import { airfoilFolderFormat } from './geofno-airfoil';

/** In the order they are asked: mat73 before hdf5, whose signature a v7.3 file carries at byte 512. */
export const FORMATS: readonly DataFormat[] = [npyFormat, npzFormat, mat73Format, mat5Format, hdf5Format];

export type SniffResult = FormatMatch;

/** Classifies a header (at least the first 520 bytes when the file has them). */
export function sniffBytes(head: Uint8Array, file = ''): SniffResult {
  for (const f of FORMATS) {
    const m = f.match(head, file);
    if (m) return m;
  }
  throw new DataError(file, 'header', 'unrecognised file format', '.npy, .npz, MATLAB v5/v7.3 .mat, HDF5, or a Geo-FNO airfoil folder');
}

/** Sniffs a path: a directory holding the three NACA_Cylinder_*.npy files is the airfoil triple. */
export function sniffFile(path: string): SniffResult {
  let st;
  try { st = statSync(path); } catch (err) { throw new DataError(path, '', `cannot open: ${errorMessage(err)}`); }
  if (st.isDirectory()) return airfoilFolderFormat.matchFolder(path);
  const fd = openRegularFile(path);
  try {
    const head = new Uint8Array(Math.min(st.size, 4096));
    readSync(fd, head, 0, head.length, 0);
    if (head.length === 0) throw new DataError(path, 'header', 'file is empty');
    return sniffBytes(head, path);
  } finally {
    closeSync(fd);
  }
}

/** The module that opens files of a sniffed format. */
export function formatNamed(name: FormatName): Pick<DataFormat, 'open'> {
  return name === 'geofno-airfoil' ? airfoilFolderFormat : FORMATS.find((f) => f.name === name)!;
}
