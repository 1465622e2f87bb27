// Browser mode's host: serves the built renderer and the WorkbenchApi over a WebSocket on
// 127.0.0.1 only. Every HTTP and WebSocket request must carry the session token, and requests
// whose Host or Origin is not the served origin are refused (DNS rebinding, cross-site pages).
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { ApiError, WireRequest, type WireMessage } from '../../api/contract';
import type { WorkbenchService } from '../../services/workbench-service';
import { parseRequestTarget } from './request-target';
import { errorMessage } from '../../util/error-message';

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

/** Largest WebSocket message accepted (exports.save carries up to 32 MiB as base64). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Close reasons for the codes ws closes with when a client sends a frame it cannot accept. */
export const CLOSE_REASONS: Readonly<Record<number, string>> = {
  1002: 'protocol error: malformed WebSocket frame',
  1007: 'invalid UTF-8 in a text message',
  1009: `message too big: the limit is ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`,
};

/**
 * ws closes a client that sent a bad frame with a bare close code (before it emits 'error');
 * this subclass adds the reason text, so the client learns why it was dropped.
 */
class HostSocket extends WebSocket {
  override close(code?: number, data?: string | Buffer): void {
    super.close(code, data ?? (code !== undefined ? CLOSE_REASONS[code] : undefined));
  }
}

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
  function refuse(req: IncomingMessage, query: URLSearchParams, requireOrigin: boolean): [number, string] | null {
    if (!allowedHosts().includes(req.headers.host ?? '')) return [403, 'forbidden: unexpected Host header'];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin)) return [403, 'forbidden: cross-origin request'];
    if (requireOrigin && origin === undefined) return [403, 'forbidden: missing Origin'];
    const given = query.get('token') ?? cookieToken(req) ?? bearer(req);
    if (!sameToken(given, token)) return [401, 'unauthorized: missing or wrong session token'];
    return null;
  }

  async function serveRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = parseRequestTarget(req.url);
    if (!target.ok) {
      res.writeHead(target.status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(target.reason);
      return;
    }
    const denied = refuse(req, target.query, false);
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
    if (target.query.get('token')) {
      // Later requests (scripts, styles) carry the token as a same-site cookie.
      headers['set-cookie'] = `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    }
    const rel = target.path === '/' ? 'index.html' : target.path.slice(1);
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
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }).end(`not found: ${target.rawPath}`);
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.on('error', (e) => console.warn(`browser host: response failed: ${e.message}`));
    // A handler that throws must cost that request a 500, never the process (and the engine with it).
    serveRequest(req, res).catch((e: unknown) => failRequest(res, e));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, WebSocket: HostSocket });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node drops its own socket error listener on 'upgrade': without one, a client that resets
    // the connection while we answer would raise an uncaught 'error' and end the process.
    socket.on('error', () => socket.destroy());
    try {
      const target = parseRequestTarget(req.url);
      const denied: [number, string] | null = !target.ok
        ? [target.status, target.reason]
        : target.path !== '/api'
          ? [404, 'not found']
          : refuse(req, target.query, true);
      if (denied) return rejectUpgrade(socket, denied[0], denied[1]);
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, opts.service));
    } catch (e) {
      console.error(`browser host: upgrade request failed: ${errorMessage(e)}`);
      rejectUpgrade(socket, 500, 'internal error');
    }
  });

  // Without a listener Node drops a CONNECT silently; answer it like any other refused request.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    rejectUpgrade(socket, 405, 'method not allowed: this host is not a proxy');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  server.on('error', (e) => console.error(`browser host: server error: ${e.message}`));
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

function failRequest(res: ServerResponse, e: unknown): void {
  console.error(`browser host: request failed: ${errorMessage(e)}`);
  if (res.headersSent) res.destroy();
  else res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('internal error');
}

/** Answers a refused upgrade or CONNECT with a plain HTTP response and closes the connection. */
function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(reason);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\n` +
      `content-length: ${body.length}\r\n\r\n${reason}`,
  );
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
  // A bad frame (invalid UTF-8, oversized, bad opcode, unmasked) is an 'error' on this socket
  // alone: ws has already closed it with a code and HostSocket's reason; the others carry on.
  ws.on('error', (e) => console.warn(`browser host: closed a WebSocket client: ${e.message}`));
  const answer = async (data: unknown) => {
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
  };
  ws.on('message', (data) => {
    answer(data).catch((e: unknown) => console.error(`browser host: could not answer a WebSocket call: ${errorMessage(e)}`));
  });
}
