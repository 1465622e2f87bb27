// The one way the workbench deletes a folder tree. An id read from a file (a sweep's state.json,
// a copied workspace) or a request is hostile until checked, and `rm -r` of a wrong path is
// unrecoverable, so a delete names a root and one entry inside it, and goes through only when:
//  - the entry is one plain path segment (no '', '.', '..', separators or NUL);
//  - neither the root nor the entry is a symbolic link, and the entry's real path lies directly
//    inside the root's real path;
//  - the entry is the workbench's own: it holds the marker file its kind writes (a run's
//    config.json, a dataset's manifest.json) or it carries one of the workbench's own names
//    (hidden temporaries such as `.name.<pid>.partial`, a checkpoint's best/last swap folders).
// Anything else is refused with a message naming the path and the rule; nothing is removed.
// test/unit/util/remove-tree.test.ts keeps recursive rm out of every other module.
import { existsSync, lstatSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** How an entry proves the workbench made it. */
export type Ownership =
  | { marker: string; what: string }
  | { names: RegExp; what: string };

export class RemoveRefusedError extends Error {
  constructor(readonly path: string, why: string) {
    super(`refused to delete ${path}: ${why}; nothing was removed`);
    this.name = 'RemoveRefusedError';
  }
}

/** Refuses a name that is not one plain path segment (the check every id gets before any disk operation). */
export function assertPathSegment(name: unknown, field: string): asserts name is string {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new RemoveRefusedError(String(name), `field '${field}' must be one folder name (not empty, '.', '..', and without '/', '\\' or NUL), got ${JSON.stringify(name)}`);
  }
}

function isSymlink(path: string): boolean {
  try { return lstatSync(path).isSymbolicLink(); } catch { return false; }
}

/**
 * Deletes `root/name` recursively where the rules above allow it; a missing entry is not an
 * error (as `rm -rf`). Returns whether something was removed.
 */
export function removeOwnTree(root: string, name: string, own: Ownership): boolean {
  assertPathSegment(name, own.what);
  const target = join(resolve(root), name);
  if (!existsSync(root) || (!existsSync(target) && !isSymlink(target))) return false;
  if (isSymlink(root)) throw new RemoveRefusedError(target, `its folder ${resolve(root)} is a symbolic link`);
  if (isSymlink(target)) throw new RemoveRefusedError(target, 'it is a symbolic link');
  const realRoot = realpathSync(root);
  const real = realpathSync(target);
  if (dirname(real) !== realRoot || real === realRoot) throw new RemoveRefusedError(target, `it does not lie directly inside ${realRoot}`);
  if ('marker' in own) {
    if (!lstatSync(real).isDirectory() || !existsSync(join(real, own.marker))) throw new RemoveRefusedError(target, `it is not ${own.what} the workbench made (no ${own.marker})`);
  } else if (!own.names.test(name)) {
    throw new RemoveRefusedError(target, `'${name}' is not a name the workbench gives ${own.what}`);
  }
  rmSync(real, { recursive: true, force: true });
  return true;
}

/** Hidden temporaries of a killed or failed writer: `.name.<pid>.partial` folders, `.name.<pid>.<stamp>.tmp` files. */
export const TEMP_NAMES = /^\..+\.(\d+)\.(partial|[a-z0-9]+\.tmp(\.h5)?)$/;

/** A writer's own temporary folder (`.name.<pid>.partial`), in the folder that holds it. */
export function removeTemp(path: string): boolean {
  const p = resolve(path);
  return removeOwnTree(dirname(p), basename(p), { names: TEMP_NAMES, what: 'a temporary folder' });
}
