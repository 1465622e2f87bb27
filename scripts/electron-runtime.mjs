// Is Electron's runtime installed? Electron >= 42 downloads it lazily (no postinstall), so
// node_modules/electron can be present without it. Returns the binary path or a reason.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function electronRuntime(root) {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(dir, 'package.json'))) return { ok: false, reason: 'the electron package is not installed' };
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return { ok: false, reason: 'the Electron runtime has not been downloaded (run `npx install-electron` where its download host is reachable)' };
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(bin)) return { ok: false, reason: `the Electron runtime is missing at ${bin}` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { ok: false, reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)', bin };
  }
  return { ok: true, bin };
}
