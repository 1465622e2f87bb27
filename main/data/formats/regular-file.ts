// The data readers' open/stat check: main/util/user-file.ts (the one primitive for a user's file)
// with its refusals as DataErrors, so the data views show file and field as they do for every format.
import { closeSync, type Stats } from 'node:fs';
import { DataError } from './errors';
import { openUserFile, statUserFile, UserFileError } from '../../util/user-file';

function asData<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserFileError) throw new DataError(e.file, '', e.problem, e.expected || undefined);
    throw e;
  }
}

/** Stats `path` (never blocks, follows symlinks) and refuses anything but a regular file. */
export function statRegularFile(path: string): Stats {
  return asData(() => statUserFile(path, 'a regular data file'));
}

/**
 * Opens `path` for reading without blocking (O_NONBLOCK: a FIFO swapped in after a stat cannot
 * hang the open) and checks the opened descriptor is a regular file. Returns the descriptor.
 */
export function openRegularFile(path: string): number {
  return asData(() => openUserFile(path, 'a regular data file').fd);
}

/** For libraries that open the file themselves (h5wasm): the same check, the descriptor closed again. */
export function checkRegularFile(path: string): void {
  closeSync(openRegularFile(path));
}
