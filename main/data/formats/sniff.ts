// Detects a file's format from its first bytes (never from its extension): a `.mat` may be
// v5 or v7.3 and users rename files freely.
import { closeSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DataError } from './errors';
import { openRegularFile } from './regular-file';
import type { FormatName } from './types';
import { errorMessage } from '../../util/error-message';

const HDF5_SIG = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
export const AIRFOIL_FILES = ['NACA_Cylinder_X.npy', 'NACA_Cylinder_Y.npy', 'NACA_Cylinder_Q.npy'];

function startsWith(b: Uint8Array, sig: number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

/** torch.save writes `<prefix>/data.pkl` as the zip's first entry (name at byte 30 of its local header). */
function isTorchSave(head: Uint8Array): boolean {
  if (head.length < 30) return false;
  const n = head[26]! | (head[27]! << 8);
  const name = new TextDecoder('latin1').decode(head.subarray(30, Math.min(30 + n, head.length)));
  return /^[^/]+\/data\.pkl$/.test(name);
}

export interface SniffResult {
  format: FormatName;
  /** mat5: byte order; hdf5/mat73: offset of the HDF5 superblock. */
  bigEndian?: boolean;
  superblockOffset?: number;
}

/** Classifies a header (at least the first 520 bytes when the file has them). */
export function sniffBytes(head: Uint8Array, file = ''): SniffResult {
  if (startsWith(head, [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59])) return { format: 'npy' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && isTorchSave(head)) {
    throw new DataError(file, 'header', 'a PyTorch checkpoint (torch.save zip), not a data file', 'a data file; import checkpoints as runs with `lino import` or the Runs view');
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return { format: 'npz' };
  if (startsWith(head, HDF5_SIG)) return { format: 'hdf5', superblockOffset: 0 };
  const text = new TextDecoder('latin1').decode(head.subarray(0, Math.min(116, head.length)));
  if (head.length >= 128 && text.startsWith('MATLAB')) {
    const e0 = head[126], e1 = head[127];
    const little = e0 === 0x49 && e1 === 0x4d; // 'IM'
    const big = e0 === 0x4d && e1 === 0x49;    // 'MI'
    if (little || big) {
      const version = little ? head[124] | (head[125] << 8) : (head[124] << 8) | head[125];
      if (version === 0x0200) {
        if (startsWith(head, HDF5_SIG, 512)) return { format: 'mat73', superblockOffset: 512 };
        throw new DataError(file, 'header', 'MAT v7.3 header without an HDF5 superblock at byte 512 (truncated or corrupt)');
      }
      if (version === 0x0100) return { format: 'mat5', bigEndian: big };
      throw new DataError(file, 'header', `MAT-file version 0x${version.toString(16)} is not supported`, 'v5 (0x0100) or v7.3 (0x0200)');
    }
  }
  // HDF5 with a user block: the superblock sits at 512, 1024, 2048, ...
  for (let at = 512; at + 8 <= head.length; at *= 2) if (startsWith(head, HDF5_SIG, at)) return { format: 'hdf5', superblockOffset: at };
  throw new DataError(file, 'header', 'unrecognised file format', '.npy, .npz, MATLAB v5/v7.3 .mat, HDF5, or a Geo-FNO airfoil folder');
}

/** Sniffs a path: a directory holding the three NACA_Cylinder_*.npy files is the airfoil triple. */
export function sniffFile(path: string): SniffResult {
  let st;
  try { st = statSync(path); } catch (err) { throw new DataError(path, '', `cannot open: ${errorMessage(err)}`); }
  if (st.isDirectory()) {
    const missing = AIRFOIL_FILES.filter((f) => { try { return !statSync(join(path, f)).isFile(); } catch { return true; } });
    if (missing.length === 0) return { format: 'geofno-airfoil' };
    throw new DataError(path, '', `folder is not a Geo-FNO airfoil set: missing ${missing.join(', ')}`, 'NACA_Cylinder_X.npy, _Y.npy and _Q.npy');
  }
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
