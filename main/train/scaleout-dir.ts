// Where the scaleout package (the workbench's protocol in PyTorch) lies on this machine: the folder
// that holds scaleout/, put on PYTHONPATH. A checkout and the engine bundle find it two levels above
// main/train/ or dist/engine/; the desktop app ships it outside app.asar (electron-builder
// extraResources: <resources>/scaleout), because Python cannot read inside the archive.
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

function candidates(): string[] {
  const here = fileURLToPath(new URL('../../', import.meta.url));
  const out: string[] = [];
  if (process.env.LINO_SCALEOUT_ROOT) out.push(process.env.LINO_SCALEOUT_ROOT);
  // inside app.asar: the resources folder beside it holds the extraResources copy
  const asar = here.indexOf(`${sep}app.asar`);
  if (asar >= 0) out.push(here.slice(0, asar));
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (resources) out.push(resources);
  out.push(here.replace(/[\\/]$/, ''));
  return out;
}

/** The folder holding scaleout/train.py (for PYTHONPATH and cwd); throws naming where it looked. */
export function scaleoutRoot(): string {
  const tried = candidates();
  for (const c of tried) if (!c.includes('.asar') && existsSync(join(c, 'scaleout', 'train.py'))) return c;
  throw new Error(`the scaleout package (scaleout/train.py) is missing: looked in ${tried.map((c) => join(c, 'scaleout')).join(', ')}`);
}

/** The scaleout/ folder itself. */
export function scaleoutDir(): string {
  return join(scaleoutRoot(), 'scaleout');
}

