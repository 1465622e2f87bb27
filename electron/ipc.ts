// IPC between the renderer and the Electron host. Deliberately free of runtime Electron imports
// so it is tested in plain Node: every message's sender is checked and every payload is
// validated against the contract (in WorkbenchService.call) before it reaches the engine.
import { ApiError, type WorkbenchEvent } from '../main/api/contract';

export const CALL_CHANNEL = 'lino:call';
export const EVENT_CHANNEL = 'lino:event';

/** The part of Electron's IpcMainInvokeEvent this module reads. */
export interface InvokeEventLike {
  senderFrame: { url: string } | null;
  sender: { id: number };
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
}

export interface CallService {
  call(method: unknown, params: unknown): Promise<unknown>;
  onEvent(listener: (e: WorkbenchEvent) => void): () => void;
}

/** Only our own renderer, served at app://workbench/ (electron/app-protocol.ts), may call. */
export function isTrustedUrl(url: string | undefined, rendererIndexUrl: string): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    const r = new URL(rendererIndexUrl);
    // Same scheme, host and path as the app's index (app://workbench/index.html); any fragment.
    return u.protocol === r.protocol && u.host === r.host && u.pathname === r.pathname && u.search === '' && u.protocol !== 'file:';
  } catch {
    return false;
  }
}

export function registerIpc(ipc: IpcMainLike, service: CallService, isTrusted: (e: InvokeEventLike) => boolean): void {
  ipc.handle(CALL_CHANNEL, async (event, method, params) => {
    if (!isTrusted(event)) {
      return { ok: false, error: new ApiError(`refused a call from an untrusted sender (${event.senderFrame?.url ?? 'unknown'})`, 'forbidden').toJSON() };
    }
    try {
      return { ok: true, result: await service.call(method, params) };
    } catch (e) {
      return { ok: false, error: ApiError.from(e).toJSON() };
    }
  });
}
