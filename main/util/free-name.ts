// Exports never overwrite: a new file or folder takes the first name not yet taken.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The first of `base+ext`, `base-2+ext`, `base-3+ext`, ... that does not exist in `dir`. */
export function freeName(dir: string, base: string, ext = ''): string {
  let name = base + ext;
  for (let i = 2; existsSync(join(dir, name)); i++) name = `${base}-${i}${ext}`;
  return name;
}
