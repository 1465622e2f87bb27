// The one place the browser host reads a request's target (`req.url`). Anyone on the machine can
// reach the port before the token check, so nothing here may throw: a target that is not a plain
// origin-form path with valid percent-encoding is answered 400 by both the HTTP and the upgrade handler.

export type RequestTarget =
  | { ok: true; /** decoded path, always starting with '/' */ path: string; /** still encoded, for messages */ rawPath: string; query: URLSearchParams }
  | { ok: false; status: 400; reason: string };

const BASE = 'http://127.0.0.1';

/** Parses an origin-form request target ('/path?query'); never throws. */
export function parseRequestTarget(target: string | undefined): RequestTarget {
  const bad = (reason: string): RequestTarget => ({ ok: false, status: 400, reason: `bad request: ${reason}` });
  if (typeof target !== 'string' || target.length === 0) return bad('empty request target');
  // Absolute-form ('http://host/...') and asterisk-form ('*') are for proxies and OPTIONS; this host serves neither.
  if (!target.startsWith('/')) return bad('the request target must be a path starting with /');
  let url: URL;
  try {
    // Concatenated rather than resolved against a base, so '//other-host/x' stays a path on this host.
    url = new URL(BASE + target);
  } catch {
    return bad('the request target is not a valid URL path');
  }
  if (url.host !== '127.0.0.1') return bad('the request target is not a valid URL path');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return bad('malformed percent-encoding in the path');
  }
  if (path.includes('\0')) return bad('NUL byte in the path');
  return { ok: true, path, rawPath: url.pathname, query: url.searchParams };
}
