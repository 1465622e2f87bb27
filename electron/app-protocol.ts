// The renderer is served from app://workbench/ instead of file://: a file:// page shares its
// origin with every local file (a compromised page could fetch ~/.ssh), while app:// serves only
// the built renderer folder. Each request is resolved here and refused unless it names a regular
// file inside that folder (no "..", no encoded separators, no symlink out of it).
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'workbench';
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * The Electron renderer's CSP, sent with every page app:// serves. It talks to the host over IPC
 * only, so unlike the browser host (main/hosts/browser/server.ts, which needs its own WebSocket)
 * it may connect to nothing but its own origin. Plotly injects style elements, hence 'unsafe-inline' for styles only.
 */
export const ELECTRON_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export type AppRequest = { ok: true; path: string; mime: string } | { ok: false; status: 400 | 404; reason: string };

/** Maps an app:// URL to a file inside `root`, or says why not (the reason is for the log only). */
export function resolveAppRequest(url: string, root: string): AppRequest {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, status: 400, reason: 'not a URL' };
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return { ok: false, status: 404, reason: `not ${APP_SCHEME}://${APP_HOST}/` };
  // Encoded separators, dots and NUL would be decoded after the traversal check: refuse them outright.
  if (/%(2f|5c|2e|00)/i.test(u.pathname) || u.pathname.includes('\\')) return { ok: false, status: 400, reason: 'encoded separator, dot or NUL in the path' };
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname).replace(/^\/+/, '');
  } catch {
    return { ok: false, status: 400, reason: 'malformed percent-encoding' };
  }
  if (rel === '') rel = 'index.html';
  if (rel.split('/').some((part) => part === '..' || part === '.')) return { ok: false, status: 400, reason: 'dot segment in the path' };
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(join(realRoot, rel));
  } catch {
    return { ok: false, status: 404, reason: 'no such file' };
  }
  const inside = relative(realRoot, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) return { ok: false, status: 404, reason: 'outside the renderer folder' };
  if (!statSync(real).isFile()) return { ok: false, status: 404, reason: 'not a regular file' };
  const mime = MIME[extname(real).toLowerCase()];
  if (!mime) return { ok: false, status: 404, reason: `no type for ${extname(real) || 'a file without extension'}` };
  return { ok: true, path: real, mime };
}

/** The part of Electron's `protocol` module used here (so the handler runs in plain Node tests). */
export interface ProtocolLike {
  handle(scheme: string, handler: (request: { url: string; method: string }) => Promise<Response>): void;
}

/** Answers app:// requests from `root`; refusals are plain 400/404 responses, logged. */
export function serveAppProtocol(protocol: ProtocolLike, root: string, log: (m: string) => void = console.warn): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('method not allowed', { status: 405 });
    const r = resolveAppRequest(request.url, root);
    if (!r.ok) {
      log(`refused ${request.url.slice(0, 200)}: ${r.reason}`);
      return new Response(r.status === 400 ? 'bad request' : 'not found', { status: r.status });
    }
    const body = await readFile(r.path);
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: { 'content-type': r.mime, 'x-content-type-options': 'nosniff', ...(r.mime.startsWith('text/html') ? { 'content-security-policy': ELECTRON_CSP } : {}) } });
  });
}
