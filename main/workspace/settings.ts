// User settings that outlive a workspace (the last workspace opened), kept in the
// platform's config folder; LINO_CONFIG_DIR overrides it (tests, portable installs).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeJsonAtomic } from '../util/atomic-file';

export interface Settings {
  lastWorkspace?: string;
  /** The Python interpreter of the 'torch' backend (the Workspace view's setting); LINO_PYTHON wins over it. */
  python?: string;
}

export function configDir(): string {
  if (process.env.LINO_CONFIG_DIR) return process.env.LINO_CONFIG_DIR;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'lino-workbench');
}

export function readSettings(): Settings {
  try {
    const v = JSON.parse(readFileSync(join(configDir(), 'settings.json'), 'utf8'));
    return v && typeof v === 'object' ? (v as Settings) : {};
  } catch {
    return {};
  }
}

export function writeSettings(s: Settings): void {
  writeJsonAtomic(join(configDir(), 'settings.json'), s);
}
