// `npm start`: the Electron app when its runtime is present, else browser mode (same engine,
// served on 127.0.0.1). Flags: --browser (force browser mode), --port N, --workspace DIR, --no-open.
import { spawn, spawnSync } from 'node:child_process';
import { electronRuntime } from './electron-runtime.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const forceBrowser = args.includes('--browser');
const passThrough = args.filter((a) => a !== '--browser');

const built = spawnSync(process.execPath, [`${root}scripts/build.mjs`], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const rt = electronRuntime(root);
let child;
if (!forceBrowser && rt.ok) {
  const ws = passThrough.indexOf('--workspace');
  child = spawn(rt.bin, ['.', ...(ws >= 0 ? ['--workspace', passThrough[ws + 1]] : [])], { cwd: root, stdio: 'inherit' });
} else {
  if (!forceBrowser) console.log(`Electron not started: ${rt.reason}; starting browser mode instead.`);
  // the engine runs from the bundle just built (no TypeScript compiled in the engine or its workers)
  const env = { ...process.env, LINO_ENGINE_BUNDLE: `${root}dist/engine/engine-process.js` };
  child = spawn(process.execPath, ['--import', 'tsx', `${root}main/hosts/browser/main.ts`, ...passThrough], { cwd: root, stdio: 'inherit', env });
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
