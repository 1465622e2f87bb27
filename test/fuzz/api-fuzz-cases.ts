// Hostile inputs for the browser host, drawn from a seeded generator so a failing case
// can be replayed: malformed HTTP requests, bad WebSocket frames and random API calls.
import { methods } from '../../main/api/contract';
import { encodeFrame } from '../helpers/raw-client';

export type Rnd = () => number;
export const int = (rnd: Rnd, n: number) => Math.floor(rnd() * n);
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)];

export interface HttpCase {
  kind: string;
  bytes: Buffer;
}

const BAD_TARGETS = [
  'http://[/', 'http://[::1/', 'http://127.0.0.1:99999/', 'https://%/', '*', '', 'index.html', '//', '///etc/passwd',
  '/%', '/%E0%A4%A', '/%zz', '/%C0%AF', '/%ff%fe%fd', '/a%00b', '/%00', '/..%2F..%2F..%2Fetc%2Fpasswd', '/..%5c..%5cwindows',
  '/api%', '/api%E0', '/?token=%', '/?token=%E0%A4%A', '/?%', '/#frag', '/\\..\\..\\', '/%2e%2e/%2e%2e/', '/' + 'a'.repeat(9000),
  '/api?token=' + '%'.repeat(50), '/%F0%9F%98', '/%ED%A0%80', '/\u00ff\u00fe',
];
const METHODS_HTTP = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PATCH', 'GETT', 'G\u00c9T', ''];

/** Random bytes with the CR LF pairs the parser needs to see an end, so every case gets an answer. */
function randomBytesLine(rnd: Rnd): Buffer {
  const n = 1 + int(rnd, 200);
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = int(rnd, 256);
  return b;
}

function mutateTarget(rnd: Rnd, t: string): string {
  const r = rnd();
  if (r < 0.2) return t + '%' + int(rnd, 256).toString(16);
  if (r < 0.3) return t.replace(/%/g, '%%');
  return t;
}

/** One malformed HTTP request: request line, headers (huge, bad Host/Origin) or raw bytes. */
export function httpCase(rnd: Rnd, port: number, token: string): HttpCase {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const withToken = rnd() < 0.5;
  const tok = (t: string) => (withToken && t.startsWith('/') ? `${t}${t.includes('?') ? '&' : '?'}token=${token}` : t);
  const upgrade = rnd() < 0.3 ? `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:${port}\r\n` : '';
  const r = rnd();
  if (r < 0.2) {
    return { kind: 'random-bytes', bytes: Buffer.concat([randomBytesLine(rnd), Buffer.from(`\r\n${host}\r\n`)]) };
  }
  if (r < 0.55) {
    const target = tok(mutateTarget(rnd, pick(rnd, BAD_TARGETS)));
    return { kind: 'bad-url', bytes: Buffer.from(`${pick(rnd, ['GET', 'GET', 'HEAD', 'POST'])} ${target} HTTP/1.1\r\n${host}${upgrade}Connection: close\r\n\r\n`, 'latin1') };
  }
  if (r < 0.65) {
    const method = pick(rnd, METHODS_HTTP);
    const version = pick(rnd, ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', 'FOO', '']);
    return { kind: 'bad-request-line', bytes: Buffer.from(`${method} ${tok('/')} ${version}\r\n${host}Connection: close\r\n\r\n`, 'latin1') };
  }
  if (r < 0.75) {
    const size = pick(rnd, [8 * 1024, 17 * 1024, 64 * 1024, 300 * 1024]);
    const many = rnd() < 0.5;
    const headers = many ? Array.from({ length: size / 16 }, (_, i) => `X-${i}: ${'v'.repeat(8)}\r\n`).join('') : `X-Big: ${'x'.repeat(size)}\r\n`;
    return { kind: 'huge-headers', bytes: Buffer.from(`GET ${tok('/')} HTTP/1.1\r\n${host}${upgrade}${headers}Connection: close\r\n\r\n`) };
  }
  const badHost = pick(rnd, [
    '', 'Host: \r\n', 'Host: evil.example\r\n', `Host: 127.0.0.1:${port}\r\nHost: evil.example\r\n`, `Host: 127.0.0.1:${port}\u00ff\r\n`,
    `Host: localhost:${port}\r\n`, `Host: [::1]:${port}\r\n`, `Host: 127.0.0.1:${port}@evil\r\n`, `Host: ${'h'.repeat(5000)}\r\n`,
  ]);
  const badOrigin = pick(rnd, ['', 'Origin: null\r\n', 'Origin: http://evil.example\r\n', `Origin: http://127.0.0.1:${port}.evil\r\n`, 'Origin: \u00ff\u00fe\r\n', `Origin: http://127.0.0.1:${port}\r\nOrigin: http://evil.example\r\n`]);
  const path = rnd() < 0.5 ? tok('/api') : tok('/');
  const up = path.startsWith('/api') ? `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n` : 'Connection: close\r\n';
  return { kind: 'bad-host-origin', bytes: Buffer.from(`GET ${path} HTTP/1.1\r\n${badHost}${badOrigin}${up}\r\n`, 'latin1') };
}

export interface WsCase {
  kind: string;
  bytes: Buffer;
}

/** One bad frame (or frame sequence) for an open /api WebSocket. */
export function wsCase(rnd: Rnd): WsCase {
  const r = int(rnd, 11);
  const small = Buffer.from('{"id":1,"method":"engine.ping","params":{"t":1}}');
  switch (r) {
    case 0: {
      const junk = Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf8]);
      const at = int(rnd, small.length);
      return { kind: 'invalid-utf8', bytes: encodeFrame({ opcode: 0x1, payload: Buffer.concat([small.subarray(0, at), junk.subarray(0, 1 + int(rnd, junk.length)), small.subarray(at)]) }) };
    }
    case 1:
      return { kind: 'oversized-length', bytes: encodeFrame({ opcode: pick(rnd, [0x1, 0x2]), length: pick(rnd, [64n * 1024n * 1024n + 1n, 1n << 40n, (1n << 63n) - 1n, 0xffffffffffffffffn]) }) };
    case 2:
      return { kind: 'bad-opcode', bytes: encodeFrame({ opcode: pick(rnd, [0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xd, 0xe, 0xf]), payload: small }) };
    case 3:
      return { kind: 'unmasked', bytes: encodeFrame({ opcode: 0x1, payload: small, mask: false }) };
    case 4: {
      const f = encodeFrame({ opcode: 0x1, payload: small });
      return { kind: 'truncated', bytes: f.subarray(0, 1 + int(rnd, f.length - 1)) };
    }
    case 5:
      return { kind: 'rsv-bits', bytes: encodeFrame({ opcode: 0x1, payload: small, rsv: 1 + int(rnd, 7) }) };
    case 6:
      return { kind: 'bad-control', bytes: encodeFrame({ opcode: pick(rnd, [0x8, 0x9, 0xa]), payload: Buffer.alloc(126 + int(rnd, 200)), fin: rnd() < 0.5 }) };
    case 7: {
      const code = Buffer.alloc(2);
      code.writeUInt16BE(pick(rnd, [0, 999, 1004, 1005, 1006, 1015, 2000, 2999, 5000, 65535]));
      return { kind: 'bad-close', bytes: encodeFrame({ opcode: 0x8, payload: Buffer.concat([code, rnd() < 0.5 ? Buffer.from([0xff]) : Buffer.alloc(0)]) }) };
    }
    case 8:
      return { kind: 'bad-fragments', bytes: rnd() < 0.5 ? encodeFrame({ opcode: 0x0, payload: small }) : Buffer.concat([encodeFrame({ opcode: 0x1, payload: small, fin: false }), encodeFrame({ opcode: 0x2, payload: small })]) };
    case 9: {
      // A text message split mid-character across fragments: valid overall, must be answered.
      const ok = Buffer.from('{"id":9,"method":"engine.ping","params":{"t":"\u00e9"}}');
      const at = ok.indexOf(0xc3) + 1;
      return { kind: 'split-utf8', bytes: Buffer.concat([encodeFrame({ opcode: 0x1, payload: ok.subarray(0, at), fin: false }), encodeFrame({ opcode: 0x0, payload: ok.subarray(at) })]) };
    }
    default: {
      const n = 1 + int(rnd, 64);
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) b[i] = int(rnd, 256);
      return { kind: 'random-bytes', bytes: b };
    }
  }
}

/** Calls that act if their random params happen to validate (restart the engine, start long jobs, move the workspace). */
const ACTING = new Set(['engine.restart', 'jobs.start', 'train.start', 'train.resume', 'datasets.generate', 'datasets.import', 'runs.evaluate', 'datasets.export', 'workspace.open', 'runs.delete', 'runs.reveal', 'runs.annotate', 'runs.exportCheckpoint', 'runs.report', 'sweeps.report', 'reproduce.report', 'runs.exportForCluster', 'runs.lightMapsCorrelation', 'runs.importCheckpoint', 'train.calibrate', 'reproduce.start', 'workspace.settings', 'train.torch', 'cost.benchmark', 'train.torchSpeed', 'train.measureTorchSpeed']); // train.calibrate: a valid config builds a model and times steps (up to 30 s); workspace.settings: changes the relL2 the views headline; train.torch: starts the interpreter; cost.benchmark: solves and times; train.torchSpeed probes the interpreter, train.measureTorchSpeed times it. settings.python is fuzzed: only an existing Python interpreter outside the workspace and temp folders is accepted (main/util/python-path.ts), so random values must be refused
const REAL = Object.keys(methods);
const KEYS = ['id', 't', 'kind', 'params', 'root', 'rel', 'name', 'file', 'dir', 'split', 'format', 'offset', 'model', 'data', 'state', 'mime', '__proto__', 'constructor', 'prototype', 'toString', ''];

export function randomJson(rnd: Rnd, depth = 0): unknown {
  const r = int(rnd, depth > 3 ? 7 : 10);
  switch (r) {
    case 0: return null;
    case 1: return rnd() < 0.5;
    case 2: return pick(rnd, [0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, -0, 1e-320, 42]);
    case 3: return pick(rnd, ['', 'f_aaaaaaaa', '../../etc/passwd', '/etc/passwd', '\u0000', '\ud800', 'x'.repeat(5000), 'home', 'workspace', 'selftest', '%00']);
    case 4: return int(rnd, 1000);
    case 5: return String.fromCharCode(...Array.from({ length: int(rnd, 20) }, () => int(rnd, 0x3000)));
    case 6: return [];
    case 7: return Array.from({ length: int(rnd, 5) }, () => randomJson(rnd, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = int(rnd, 5); i > 0; i--) o[pick(rnd, KEYS)] = randomJson(rnd, depth + 1);
      return o;
    }
  }
}

export interface ApiCase {
  kind: string;
  /** The text message sent on the WebSocket. */
  text: string;
  /** The request id the host should answer (-1 when the message is not a valid request). */
  id: number;
}

/** One random API call: random or near-miss method names, random params, or a malformed message. */
export function apiCase(rnd: Rnd, id: number): ApiCase {
  const r = rnd();
  if (r < 0.15) {
    const text = pick(rnd, ['not json', '{', '[]', 'null', '1', '"x"', '{"id":"1","method":"engine.ping"}', '{"id":1.5,"method":"x"}', '{"method":"engine.ping","params":{"t":1}}', `{"id":${'9'.repeat(400)},"method":"engine.ping"}`, '['.repeat(5000) + ']'.repeat(5000), '{"id":1,"method":' + '"a"'.repeat(2) + '}']);
    return { kind: 'malformed-message', text, id: -1 };
  }
  let method: string;
  if (r < 0.4) {
    method = rnd() < 0.5
      ? pick(rnd, ['', ' ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'engine', 'engine.', 'engine.ping ', 'ENGINE.PING', 'engine..ping', '../engine.ping', 'engine.ping\u0000', 'x'.repeat(100)])
      : String.fromCharCode(...Array.from({ length: 1 + int(rnd, 30) }, () => 32 + int(rnd, 95)));
    return { kind: 'random-method', text: JSON.stringify({ id, method, params: randomJson(rnd) }), id };
  }
  method = pick(rnd, REAL);
  // Acting methods get params of the wrong shape only (a non-null primitive or an array), which every schema refuses.
  const params = ACTING.has(method) ? pick(rnd, [1, 'x', true, [], [1, 2], -0]) : randomJson(rnd);
  return { kind: 'random-params', text: JSON.stringify({ id, method, params }), id };
}
