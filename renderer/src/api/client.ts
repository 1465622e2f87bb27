// The renderer's one API object. In Electron the preload bridge provides it (window.linoBridge);
// in browser mode it is a WebSocket client. Views never know which.
import type { MethodName, Params, Result, WireMessage, WorkbenchApi, WorkbenchEvent, ApiErrorShape } from '../../../main/api/contract';

export interface LinoBridge {
  call(method: string, params: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: ApiErrorShape }>;
  onEvent(listener: (event: unknown) => void): () => void;
}

declare global {
  interface Window {
    linoBridge?: LinoBridge;
  }
}

export class WorkbenchCallError extends Error {
  constructor(readonly shape: ApiErrorShape) {
    super(shape.message);
    this.name = 'WorkbenchCallError';
  }
}

function bridgeApi(bridge: LinoBridge): WorkbenchApi {
  return {
    async call(method, params) {
      const r = await bridge.call(method, params);
      if (!r.ok) throw new WorkbenchCallError(r.error);
      return r.result as never;
    },
    onEvent: (l) => bridge.onEvent((e) => l(e as WorkbenchEvent)),
  };
}

/** WebSocket transport; reconnects after the host restarts, failing the calls in flight. */
function socketApi(url: string): WorkbenchApi {
  const listeners = new Set<(e: WorkbenchEvent) => void>();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;

  function connect(): Promise<WebSocket> {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
      };
      ws.onerror = () => reject(new Error('cannot reach the workbench host'));
      ws.onclose = () => {
        socket = null;
        opened = null;
        for (const [, p] of pending) p.reject(new Error('connection to the workbench host closed'));
        pending.clear();
        for (const l of listeners) l({ type: 'engine', state: 'crashed', detail: 'connection to the workbench host closed' });
      };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(String(ev.data)) as WireMessage;
        if (msg.kind === 'event') {
          for (const l of listeners) l(msg.event);
          return;
        }
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(new WorkbenchCallError(msg.error));
      };
    });
    return opened;
  }

  return {
    async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      const ws = socket ?? (await connect());
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
    onEvent(l) {
      listeners.add(l);
      void connect().catch(() => {});
      return () => listeners.delete(l);
    },
  };
}

export function createApi(): WorkbenchApi {
  if (window.linoBridge) return bridgeApi(window.linoBridge);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  return socketApi(`${proto}://${location.host}/api?token=${encodeURIComponent(token)}`);
}
