// Atomic file writes: write to a temporary sibling, fsync, rename over the target, fsync the folder,
// so a crash never leaves a half-written array, manifest, checkpoint or setting behind.
// Shared by the data store, the run store and the hosts.
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export function tempSibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}${randomBytes(4).toString('hex')}.tmp`);
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch {
    // some platforms (Windows) cannot open a directory; the rename itself is still atomic there
  }
}

/** Writes `parts` in order to `path` atomically. */
export function writeFileAtomic(path: string, parts: Iterable<Uint8Array> | Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempSibling(path);
  const fd = openSync(tmp, 'w');
  try {
    const list = typeof parts === 'string' ? [Buffer.from(parts, 'utf8')] : parts instanceof Uint8Array ? [parts] : parts;
    for (const p of list) {
      let off = 0;
      while (off < p.length) off += writeSync(fd, p, off, Math.min(p.length - off, 1 << 30));
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  commitTemp(tmp, path);
}

/** Renames a finished temp file over `path` and syncs the folder. */
export function commitTemp(tmp: string, path: string): void {
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dirname(path));
}

/** Copies `src` to `dest` atomically (`dest` is absent or complete); a failed copy throws its error and leaves no temp file. */
export function copyFileAtomic(src: string, dest: string): void {
  const tmp = tempSibling(dest);
  try {
    copyFileSync(src, tmp);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  commitTemp(tmp, dest);
}

/** JSON (pretty, newline-terminated) written atomically. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}
