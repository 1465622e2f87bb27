// Temp files a killed process left behind in a workspace: atomic writes go through hidden siblings
// (`.name.<pid>.<stamp>.tmp`, main/util/atomic-file.ts) and exports through hidden folders
// (`.name.<pid>.partial`, runs being created too). A dataset array's temp can be 100 MB and more; they are removed when the
// workspace is next opened, unless the process that wrote them is still running.
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { removeOwnTree, TEMP_NAMES } from '../util/remove-tree';

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: leave its files alone
  }
}

function sizeOf(path: string, st: Stats): number {
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of readdirSync(path)) {
    try { total += sizeOf(join(path, name), lstatSync(join(path, name))); } catch { /* gone meanwhile */ }
  }
  return total;
}

export interface Leftover { path: string; bytes: number }

/** Removes dead writers' temp files in `dir` and (depth 1) its sub-folders; answers what it removed. */
function sweep(dir: string, depth: number, out: Leftover[]): void {
  let names: string[];
  try { names = readdirSync(dir); } catch { return; }
  for (const name of names) {
    const path = join(dir, name);
    let st: Stats;
    try { st = lstatSync(path); } catch { continue; }
    const m = TEMP_NAMES.exec(name);
    if (m && !st.isSymbolicLink()) {
      if (alive(Number(m[1]))) continue;
      const bytes = sizeOf(path, st);
      try {
        removeOwnTree(dir, name, { names: TEMP_NAMES, what: 'a temporary file or folder' });
        out.push({ path, bytes });
      } catch { /* not ours to remove (permissions): left in place */ }
    } else if (depth > 0 && st.isDirectory() && !name.startsWith('.')) {
      sweep(path, depth - 1, out);
    }
  }
}

/** Leftover temp files and folders in a workspace's datasets/ and exports/ (and their sub-folders). */
export function removeLeftoverTemps(workspace: string): Leftover[] {
  const out: Leftover[] = [];
  for (const d of ['datasets', 'exports']) sweep(join(workspace, d), 1, out);
  sweep(join(workspace, 'runs'), 0, out); // a run created by a killed process (RunStore.create)
  return out;
}
