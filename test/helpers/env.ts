// Per-test temporary workspace and config folders, so tests never touch the user's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDir(prefix = 'lino-test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Points the settings file at a temporary folder for this process. */
export function isolateConfig(): () => void {
  const dir = tempDir('lino-config-');
  const prev = process.env.LINO_CONFIG_DIR;
  process.env.LINO_CONFIG_DIR = dir.path;
  return () => {
    if (prev === undefined) delete process.env.LINO_CONFIG_DIR;
    else process.env.LINO_CONFIG_DIR = prev;
    dir.cleanup();
  };
}
