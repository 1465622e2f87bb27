// The Electron host: one window, hardened; IPC into the same WorkbenchService browser mode uses.
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { WorkbenchService } from '../main/services/workbench-service';
import { registerIpc, isTrustedUrl, EVENT_CHANNEL } from './ipc';
import { utilityLauncher } from './engine-launcher';
import { saveDialogOptions } from './save-dialog';
import { isAllowedExternalUrl } from './external-links';
import { installPermissionGuards } from './permissions';
import { installNavigationGuards, type NavigationEvents } from './navigation';
import { APP_SCHEME, APP_INDEX_URL, serveAppProtocol } from './app-protocol';

const here = dirname(fileURLToPath(import.meta.url)); // dist/electron
const rendererDir = join(here, '..', 'renderer');
const rendererUrl = APP_INDEX_URL;

const { values } = parseArgs({ args: process.argv.slice(app.isPackaged ? 1 : 2), options: { workspace: { type: 'string' } }, strict: false });

app.enableSandbox();
// app:// behaves as a secure, standard origin (relative URLs, fetch, CSP 'self'); must precede ready.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

app.on('web-contents-created', (_e, contents) => {
  // No navigation away from the app and no new windows; documentation links (and only those)
  // open in the system browser.
  installNavigationGuards(contents as unknown as NavigationEvents, rendererUrl);
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    else console.warn(`refused to open ${url.slice(0, 200)}: not a documentation link (electron/external-links.ts)`);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (ev) => ev.preventDefault());
});

async function main() {
  await app.whenReady();
  installPermissionGuards(session.defaultSession, (m) => console.warn(m));
  serveAppProtocol(protocol, rendererDir);
  const service = new WorkbenchService({
    host: 'electron',
    launcher: utilityLauncher(join(here, '..', 'engine', 'engine-process.js')),
    workspace: typeof values.workspace === 'string' ? values.workspace : undefined,
    dialogs: {
      async pickOpen({ directory, title }) {
        const r = await dialog.showOpenDialog({ title, properties: [directory ? 'openDirectory' : 'openFile', 'createDirectory'] });
        return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
      },
      async openFolder(path) {
        // shell.openPath resolves to an error message, '' on success.
        return (await shell.openPath(path)) === '';
      },
      async pickSave({ defaultName, title }) {
        const r = await dialog.showSaveDialog(saveDialogOptions(defaultName, app.getPath('documents'), title));
        return r.canceled || !r.filePath ? null : r.filePath;
      },
    },
  });
  registerIpc(ipcMain, service, (e) => isTrustedUrl(e.senderFrame?.url, rendererUrl));

  const win = new BrowserWindow({
    width: 1366,
    height: 768,
    title: 'LiNO Workbench',
    webPreferences: {
      preload: join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  service.onEvent((event) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });
  void service.engine.start().catch((e) => console.error(`engine failed to start: ${e.message}`));
  await win.loadURL(rendererUrl);
  app.on('window-all-closed', async () => {
    await service.dispose();
    app.quit();
  });
}

main().catch((e) => {
  console.error(e);
  app.exit(1);
});
