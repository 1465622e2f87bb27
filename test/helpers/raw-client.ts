// Clients for talking to the browser host the way a hostile local process would: raw bytes over
// TCP (request lines Node's own client refuses to send), hand-built WebSocket frames, and a plain
// API client for checking afterwards that the host and the engine still answer.
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

export interface RawReply {
  /** The HTTP status the host answered, or null when it closed without a status line. */
  status: number | null;
  text: string;
  /** How the exchange ended. */
  ended: 'closed' | 'error' | 'timeout';
}

/** Sends `bytes` on a fresh loopback connection and collects the reply until the host closes it. */
export function rawRequest(port: number, bytes: Buffer | string, timeoutMs = 5000): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const s = connect({ host: '127.0.0.1', port });
    let settled = false;
    const finish = (ended: RawReply['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = text.match(/^HTTP\/1\.[01] (\d{3})/);
      resolve({ status: m ? Number(m[1]) : null, text, ended });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    s.on('data', (c) => {
      chunks.push(c);
      // A keep-alive answer stays open: a complete response with its body is enough.
      if (complete(Buffer.concat(chunks).toString('latin1'))) finish('closed');
    });
    s.on('end', () => finish('closed'));
    s.on('close', () => finish('closed'));
    s.on('error', () => finish('error'));
    s.write(bytes);
  });
}

function complete(text: string): boolean {
  const head = text.indexOf('\r\n\r\n');
  if (head < 0) return false;
  const len = text.slice(0, head).match(/\r\ncontent-length: *(\d+)/i);
  if (len) return text.length - head - 4 >= Number(len[1]);
  return /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, head)) ? text.endsWith('0\r\n\r\n') : false;
}

/** A WebSocket connection to /api opened by hand, so the test can write any bytes on it. */
export interface RawWebSocket {
  socket: Socket;
  /** Resolves with the host's close frame (code and reason), or null if it just dropped the connection. */
  closed(timeoutMs?: number): Promise<{ code: number; reason: string } | null>;
}

export function rawWebSocket(port: number, token: string): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    let upgraded = false;
    const frames: Buffer[] = [];
    let onFrames = () => {};
    let ended = false;
    s.on('error', () => {});
    s.on('close', () => {
      ended = true;
      onFrames();
      if (!upgraded) reject(new Error(`the host closed the upgrade: ${buf.toString('latin1').slice(0, 200)}`));
    });
    s.on('data', (c) => {
      buf = Buffer.concat([buf, c]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        buf = buf.subarray(end + 4);
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
        upgraded = true;
        resolve({ socket: s, closed });
      }
      frames.push(buf);
      buf = Buffer.alloc(0);
      onFrames();
    });
    const closed = (timeoutMs = 5000) =>
      new Promise<{ code: number; reason: string } | null>((done) => {
        const timer = setTimeout(() => done(null), timeoutMs);
        const look = () => {
          const frame = findClose(Buffer.concat(frames));
          if (frame || ended) {
            clearTimeout(timer);
            done(frame);
          }
        };
        onFrames = look;
        look();
      });
    s.write(
      `GET /api?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

/** Walks the host's (unmasked) frames and answers the first close frame's code and reason. */
function findClose(b: Buffer): { code: number; reason: string } | null {
  let p = 0;
  while (p + 2 <= b.length) {
    const opcode = b[p] & 0x0f;
    let len = b[p + 1] & 0x7f;
    let q = p + 2;
    if (len === 126) {
      if (q + 2 > b.length) return null;
      len = b.readUInt16BE(q);
      q += 2;
    } else if (len === 127) {
      if (q + 8 > b.length) return null;
      len = Number(b.readBigUInt64BE(q));
      q += 8;
    }
    if (q + len > b.length) return null;
    if (opcode === 0x8) {
      const body = b.subarray(q, q + len);
      return { code: body.length >= 2 ? body.readUInt16BE(0) : 1005, reason: body.subarray(2).toString('utf8') };
    }
    p = q + len;
  }
  return null;
}

export interface FrameOptions {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  /** Clients must mask; false builds the unmasked frame a server must refuse. */
  mask?: boolean;
  rsv?: number;
  /** Announce this length instead of the payload's own (a lie, or a huge 64-bit length). */
  length?: bigint;
}

/** Encodes one WebSocket frame as a client would send it (or, with options, as it must not). */
export function encodeFrame(o: FrameOptions): Buffer {
  const payload = o.payload ?? Buffer.alloc(0);
  const len = o.length ?? BigInt(payload.length);
  const mask = o.mask ?? true;
  const first = ((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | (o.opcode & 0x0f);
  let head: Buffer;
  if (len < 126n) head = Buffer.from([first, (mask ? 0x80 : 0) | Number(len)]);
  else if (len < 65536n) {
    head = Buffer.from([first, (mask ? 0x80 : 0) | 126, 0, 0]);
    head.writeUInt16BE(Number(len), 2);
  } else {
    head = Buffer.alloc(10);
    head[0] = first;
    head[1] = (mask ? 0x80 : 0) | 127;
    head.writeBigUInt64BE(len, 2);
  }
  if (!mask) return Buffer.concat([head, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i] ^= key[i & 3];
  return Buffer.concat([head, key, body]);
}

/** A plain WorkbenchApi client over the host's WebSocket, with the token and the right Origin. */
export interface ApiClient {
  call(method: string, params: unknown, timeoutMs?: number): Promise<{ ok: boolean; result?: any; error?: { message: string; code: string } }>;
  close(): void;
}

export function apiClient(port: number, token: string): Promise<ApiClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`, { headers: { origin: `http://127.0.0.1:${port}` } });
    const waiting = new Map<number, (m: any) => void>();
    let next = 1;
    ws.on('message', (d) => {
      let m: any;
      try {
        m = JSON.parse(String(d));
      } catch {
        return;
      }
      if (m.kind === 'response') waiting.get(m.id)?.(m);
    });
    ws.on('error', (e) => reject(e));
    ws.on('close', () => {
      for (const w of waiting.values()) w({ ok: false, error: { message: 'connection closed', code: 'closed' } });
      waiting.clear();
    });
    ws.on('open', () =>
      resolve({
        call(method, params, timeoutMs = 30_000) {
          const id = next++;
          return new Promise((done) => {
            const timer = setTimeout(() => {
              waiting.delete(id);
              done({ ok: false, error: { message: `no answer within ${timeoutMs} ms`, code: 'timeout' } });
            }, timeoutMs);
            waiting.set(id, (m) => {
              clearTimeout(timer);
              waiting.delete(id);
              done(m);
            });
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, method, params }));
          });
        },
        close: () => ws.close(),
      }),
    );
  });
}

/** True when a fresh, tokened WebSocket client gets `engine.ping` answered by the engine in time. */
export async function enginePings(port: number, token: string, timeoutMs = 30_000): Promise<boolean> {
  let c: ApiClient;
  try {
    c = await apiClient(port, token);
  } catch {
    return false;
  }
  try {
    const t = Math.floor(Math.random() * 1e9);
    const r = await c.call('engine.ping', { t }, timeoutMs);
    return r.ok === true && r.result?.t === t && typeof r.result?.engineTime === 'number';
  } finally {
    c.close();
  }
}
