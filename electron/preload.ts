// Sandboxed preload: exposes exactly one object, window.linoBridge, and nothing of Node or Electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

const CALL_CHANNEL = 'lino:call';
const EVENT_CHANNEL = 'lino:event';

contextBridge.exposeInMainWorld('linoBridge', {
  call: (method: string, params: unknown) => ipcRenderer.invoke(CALL_CHANNEL, method, params),
  onEvent: (listener: (event: unknown) => void) => {
    const handler = (_e: IpcRendererEvent, event: unknown) => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});
