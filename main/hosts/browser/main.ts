// `npm run browser` / the fallback of `npm start`: the workbench in a browser tab, served by
// this Node process, with the engine in a forked child process.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBrowserHost } from './server';
import { WorkbenchService } from '../../services/workbench-service';
import { bundleLauncher, forkLauncher } from '../../services/engine-launcher';
import { errorMessage } from '../../util/error-message';

export const RENDERER_DIR = fileURLToPath(new URL('../../../dist/renderer', import.meta.url));

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No default browser: the printed URL is enough.
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      workspace: { type: 'string' },
      'no-open': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!existsSync(`${RENDERER_DIR}/index.html`)) {
    console.error(`The renderer is not built (${RENDERER_DIR}/index.html is missing): run 'npm run build' first.`);
    process.exit(1);
  }
  // npm start builds the engine bundle and names it; run on its own, the host forks the sources
  const bundle = process.env.LINO_ENGINE_BUNDLE;
  const launcher = bundle && existsSync(bundle) ? bundleLauncher(bundle) : forkLauncher;
  const service = new WorkbenchService({ host: 'browser', launcher, workspace: values.workspace });
  const host = await startBrowserHost({ service, staticDir: RENDERER_DIR, port: values.port ? Number(values.port) : undefined });
  console.log(`LiNO Workbench (browser mode) at ${host.url}`);
  console.log(`workspace: ${service.workspacePath}`);
  if (!values['no-open']) openBrowser(host.url);
  service.engine.start().catch((e) => console.error(`engine failed to start: ${e.message}`));
  const stop = async () => {
    await host.close();
    await service.dispose();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(errorMessage(e));
  process.exit(1);
});
