// Browser mode's host: serves the built renderer and the WorkbenchApi over a WebSocket on
// 127.0.0.1 only. Every HTTP and WebSocket request must carry the session token, and requests
// whose Host or Origin is not the served origin are refused (DNS rebinding, cross-site pages).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiError, WireRequest, type WireMessage } from '../../api/contract';
import type { WorkbenchService } from '../../services/workbench-service';

export interface BrowserHostOptions {
  service: WorkbenchService;
  /** Folder holding the built renderer (index.html, app.js, app.css). */
  staticDir: string;
  port?: number;
  token?: string;
}

export interface BrowserHost {
  url: string;
  port: number;
  token: string;
  server: Server;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

// Plotly injects style elements at run time, hence 'unsafe-inline' for styles only; scripts stay 'self'.
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

const COOKIE = 'lino_token';

function sameToken(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieToken(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

export async function startBrowserHost(opts: BrowserHostOptions): Promise<BrowserHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  /** Returns null when the request may proceed, else the status and reason for refusing it. */
  function refuse(req: IncomingMessage, url: URL, requireOrigin: boolean): [number, string] | null {
    if (!allowedHosts().includes(req.headers.host ?? '')) return [403, 'forbidden: unexpected Host header'];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin)) return [403, 'forbidden: cross-origin request'];
    if (requireOrigin && origin === undefined) return [403, 'forbidden: missing Origin'];
    const given = url.searchParams.get('token') ?? cookieToken(req) ?? bearer(req);
    if (!sameToken(given, token)) return [401, 'unauthorized: missing or wrong session token'];
    return null;
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const denied = refuse(req, url, false);
    if (denied) {
      res.writeHead(denied[0], { 'content-type': 'text/plain; charset=utf-8' }).end(denied[1]);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const headers: Record<string, string> = {
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (url.searchParams.get('token')) {
      // Later requests (scripts, styles) carry the token as a same-site cookie.
      headers['set-cookie'] = `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    }
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = normalize(join(opts.staticDir, rel));
    if (!file.startsWith(normalize(opts.staticDir) + sep)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const st = await stat(file);
      if (!st.isFile()) throw new Error('not a file');
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${url.pathname}`);
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const denied = url.pathname !== '/api' ? ([404, 'not found'] as [number, string]) : refuse(req, url, true);
    if (denied) {
      socket.end(`HTTP/1.1 ${denied[0]} ${denied[0] === 401 ? 'Unauthorized' : denied[0] === 404 ? 'Not Found' : 'Forbidden'}\r\nconnection: close\r\ncontent-length: ${denied[1].length}\r\n\r\n${denied[1]}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, opts.service));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/?token=${token}`;
  return {
    url,
    port,
    token,
    server,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
}

function serveSocket(ws: WebSocket, service: WorkbenchService): void {
  const send = (m: WireMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const off = service.onEvent((event) => send({ kind: 'event', event }));
  ws.on('close', off);
  ws.on('message', async (data) => {
    let id = -1;
    try {
      const req = WireRequest.parse(JSON.parse(String(data)));
      id = req.id;
      const result = await service.call(req.method, req.params);
      send({ kind: 'response', id, ok: true, result });
    } catch (e) {
      const err = e instanceof SyntaxError || (e as { name?: string }).name === 'ZodError'
        ? new ApiError('malformed request', 'invalid_params')
        : ApiError.from(e);
      send({ kind: 'response', id, ok: false, error: err.toJSON() });
    }
  });
}
