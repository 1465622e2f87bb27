// Starts the real browser-mode host (real WorkbenchService, real forked engine) on a free port.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBrowserHost, type BrowserHost } from '../../main/hosts/browser/server';
import { WorkbenchService } from '../../main/services/workbench-service';
import { testLauncher } from './test-launcher';
import { tempDir, isolateConfig } from './env';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RENDERER_DIR = `${ROOT}dist/renderer`;

export function ensureRendererBuilt(): void {
  // scripts/test.mjs builds the renderer before any browser test; this covers running a file alone.
  if (existsSync(`${RENDERER_DIR}/index.html`)) return;
  const r = spawnSync(process.execPath, [`${ROOT}scripts/build.mjs`, 'renderer'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('renderer build failed');
}

export interface TestHost {
  host: BrowserHost;
  service: WorkbenchService;
  workspace: string;
  home: string;
  stop(): Promise<void>;
}

export async function startTestHost(): Promise<TestHost> {
  const restoreConfig = isolateConfig();
  const ws = tempDir('lino-ws-');
  const home = tempDir('lino-home-');
  const service = new WorkbenchService({ host: 'browser', launcher: testLauncher(), workspace: ws.path, homeRoot: home.path });
  const host = await startBrowserHost({ service, staticDir: RENDERER_DIR });
  return {
    host,
    service,
    workspace: ws.path,
    home: home.path,
    async stop() {
      await host.close();
      await service.dispose();
      ws.cleanup();
      home.cleanup();
      restoreConfig();
    },
  };
}
