// The one way a user's file is read (data files, checkpoints, safetensors, configs): only a regular
// file is opened (a FIFO, socket or device named `x.pt` would block open() or read() forever and
// take the engine with it), without blocking (O_NONBLOCK: a FIFO swapped in after the stat cannot
// hang the open), and never past a size limit the caller names, checked before anything is allocated.
// test/unit/util/user-file-reads.test.ts keeps readFileSync/openSync on user paths out of other modules.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { errorMessage } from './error-message';

/** A user's file that cannot be read as asked: names the file, the problem and what was expected. */
export class UserFileError extends Error {
  constructor(readonly file: string, readonly problem: string, readonly expected = '') {
    super(`${file}: ${problem}${expected ? ` (expected ${expected})` : ''}`);
    this.name = 'UserFileError';
  }
}

/** Largest file read whole into memory (a typed array's practical limit). */
export const MAX_WHOLE_FILE_BYTES = 2 ** 31 - 1;

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isDirectory()) return 'a folder';
  return 'not a plain file';
}

function refuse(path: string, st: Stats, expected: string): never {
  throw new UserFileError(path, `is not a regular file (it is ${kindOf(st)}); it is not read`, expected);
}

/** Stats `path` (never blocks, follows symlinks) and refuses anything but a regular file. */
export function statUserFile(path: string, expected = 'a regular file'): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw new UserFileError(path, `cannot open: ${errorMessage(err)}`);
  }
  if (!st.isFile()) refuse(path, st, expected);
  return st;
}

/** Opens a regular file for reading without blocking; returns the descriptor and the opened file's size. */
export function openUserFile(path: string, expected = 'a regular file'): { fd: number; size: number } {
  statUserFile(path, expected);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new UserFileError(path, `cannot open: ${errorMessage(err)}`);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    refuse(path, st, expected);
  }
  return { fd, size: st.size };
}

export interface ReadUserFileOptions {
  /** Refused above this many bytes, before anything is allocated. */
  maxBytes?: number;
  /** What the file should be, for the messages ('a PyTorch checkpoint'). */
  what?: string;
}

/** The whole file, after the regular-file check and the size limit. */
export function readUserFile(path: string, o: ReadUserFileOptions = {}): Uint8Array {
  const what = o.what ?? 'a regular file';
  const max = Math.min(o.maxBytes ?? MAX_WHOLE_FILE_BYTES, MAX_WHOLE_FILE_BYTES);
  const { fd, size } = openUserFile(path, what);
  try {
    if (size > max) throw new UserFileError(path, `is ${size} bytes, more than the ${max} bytes read for ${what}; it is not read`, `${what} of at most ${max} bytes`);
    const out = new Uint8Array(size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, out, done, Math.min(1 << 30, size - done), done);
      if (n <= 0) throw new UserFileError(path, `ended at byte ${done} of ${size} while it was read (the file changed)`, what);
      done += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** A text file (configs, JSON) as UTF-8, with the same checks; 64 MiB unless told otherwise. */
export function readUserText(path: string, o: ReadUserFileOptions = {}): string {
  const bytes = readUserFile(path, { maxBytes: 64 * 2 ** 20, ...o });
  return new TextDecoder('utf-8').decode(bytes);
}
