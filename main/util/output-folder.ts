// Where a command writes a folder of results (export-run, data export, data generate, lightmaps,
// reproduce --out): a new or empty folder only, so nothing a user made there is overwritten;
// `--force` says the user means it (files of the same names are then replaced, others kept).
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** Makes `dir` (and its parents) or checks it is an empty folder; answers the absolute path. */
export function prepareOutputFolder(dir: string, o: { force?: boolean; flag?: string } = {}): string {
  const out = resolve(dir);
  const flag = o.flag ?? '--out';
  let st;
  try {
    st = statSync(out);
  } catch {
    mkdirSync(out, { recursive: true });
    return out;
  }
  if (!st.isDirectory()) throw new Error(`${out}: ${flag} names an existing file, expected a new or empty folder`);
  const held = readdirSync(out);
  if (held.length && !o.force) {
    const shown = held.slice(0, 5).join(', ') + (held.length > 5 ? `, … (${held.length} entries)` : '');
    throw new Error(`${out}: ${flag} names a folder that is not empty (it holds ${shown}); choose a new or empty folder, or pass --force to overwrite files of the same names`);
  }
  return out;
}
