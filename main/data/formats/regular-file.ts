// The one open/stat check every reader goes through: only regular files are read. A FIFO, socket
// or device named `x.npy` would block open() or read() forever and take the engine with it.
import { closeSync, constants, fstatSync, openSync, statSync, type Stats } from 'node:fs';
import { DataError } from './errors';
import { errorMessage } from '../../util/error-message';

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isDirectory()) return 'a folder';
  return 'not a plain file';
}

function refuse(path: string, st: Stats): never {
  throw new DataError(path, '', `is not a regular file (it is ${kindOf(st)}); it is not read`, 'a regular data file');
}

/** Stats `path` (never blocks, follows symlinks) and refuses anything but a regular file. */
export function statRegularFile(path: string): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw new DataError(path, '', `cannot open: ${errorMessage(err)}`);
  }
  if (!st.isFile()) refuse(path, st);
  return st;
}

/**
 * Opens `path` for reading without blocking (O_NONBLOCK: a FIFO swapped in after a stat cannot
 * hang the open) and checks the opened descriptor is a regular file. Returns the descriptor.
 */
export function openRegularFile(path: string): number {
  statRegularFile(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new DataError(path, '', `cannot open: ${errorMessage(err)}`);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    refuse(path, st);
  }
  return fd;
}

/** For libraries that open the file themselves (h5wasm): the same check, the descriptor closed again. */
export function checkRegularFile(path: string): void {
  closeSync(openRegularFile(path));
}
