// Drives the API fuzz against a running browser host on 127.0.0.1: malformed HTTP requests, bad
// WebSocket frames and random API calls in turn, with a tokened GET and an engine.ping every
// `checkEvery` cases and at the end. A case fails when the host exits, answers 5xx, leaves a
// complete request or an API call unanswered, closes a client for a bad frame without a reason,
// or a check fails.
import WebSocket from 'ws';
import { seededRandom } from '../../main/data/stages/split';
import { rawRequest, rawWebSocket, enginePings } from '../helpers/raw-client';
import { httpCase, wsCase, apiCase } from './api-fuzz-cases';
import { CLOSE_REASONS } from '../../main/hosts/browser/server';

export interface FuzzTarget {
  port: number;
  token: string;
  alive(): boolean;
  log(): string;
}

export interface ApiFuzzOptions {
  /** Cases in all, taken in turn from the three categories. */
  cases: number;
  seed?: number;
  /** Stop after this long even if cases remain (the report says so). */
  seconds?: number;
  checkEvery?: number;
}

type Category = 'http' | 'ws' | 'api';

export interface ApiFuzzReport {
  cases: number;
  seconds: number;
  stoppedAtDeadline: boolean;
  sent: Record<Category, Record<string, number>>;
  answers: Record<Category, Record<string, number>>;
  pings: { ok: number; failed: number };
  pages: { ok: number; failed: number };
  failures: string[];
}

const bump = (m: Record<string, number>, k: string) => void (m[k] = (m[k] ?? 0) + 1);

/** A WebSocket API connection that sends raw text and waits for the answer with a given id. */
class RawApi {
  private ws!: WebSocket;
  private pending: { id: number; done: (m: { ok: boolean; error?: { code: string } } | null) => void } | null = null;
  constructor(private port: number, private token: string) {}

  async open(): Promise<void> {
    this.ws = new WebSocket(`ws://127.0.0.1:${this.port}/api?token=${this.token}`, { headers: { origin: `http://127.0.0.1:${this.port}` } });
    this.ws.on('message', (d) => {
      let m: { kind?: string; id?: number; ok: boolean; error?: { code: string } };
      try {
        m = JSON.parse(String(d));
      } catch {
        return;
      }
      if (m.kind === 'response' && this.pending && m.id === this.pending.id) this.pending.done(m);
    });
    this.ws.on('close', () => this.pending?.done(null));
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('error', () => {});
  }

  get open_(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  send(text: string, id: number, timeoutMs: number): Promise<{ ok: boolean; error?: { code: string } } | null | 'timeout'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      const finish = (v: { ok: boolean; error?: { code: string } } | null | 'timeout') => {
        clearTimeout(timer);
        this.pending = null;
        resolve(v);
      };
      this.pending = { id, done: finish };
      this.ws.send(text);
    });
  }

  close(): void {
    this.ws?.close();
  }
}

export async function fuzzApi(target: FuzzTarget, opts: ApiFuzzOptions): Promise<ApiFuzzReport> {
  const seed = opts.seed ?? 1;
  const checkEvery = opts.checkEvery ?? 50;
  const deadline = Date.now() + (opts.seconds ?? 600) * 1000;
  const t0 = Date.now();
  const r: ApiFuzzReport = {
    cases: 0,
    seconds: 0,
    stoppedAtDeadline: false,
    sent: { http: {}, ws: {}, api: {} },
    answers: { http: {}, ws: {}, api: {} },
    pings: { ok: 0, failed: 0 },
    pages: { ok: 0, failed: 0 },
    failures: [],
  };
  const fail = (msg: string) => r.failures.push(msg);
  const api = new RawApi(target.port, target.token);
  await api.open();

  const check = async (when: string) => {
    if (!target.alive()) return false;
    const page = await rawRequest(target.port, `GET /?token=${target.token} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nConnection: close\r\n\r\n`);
    if (page.status === 200) r.pages.ok++;
    else {
      r.pages.failed++;
      fail(`${when}: tokened GET / answered ${page.status ?? page.ended}`);
    }
    if (await enginePings(target.port, target.token, 30_000)) r.pings.ok++;
    else {
      r.pings.failed++;
      fail(`${when}: engine.ping got no answer`);
    }
    return true;
  };

  for (let i = 0; i < opts.cases; i++) {
    if (Date.now() > deadline) {
      r.stoppedAtDeadline = true;
      break;
    }
    const rnd = seededRandom(seed * 1000003 + i);
    const cat: Category = (['http', 'ws', 'api'] as const)[i % 3];
    const where = `case ${i} (seed ${seed})`;
    if (cat === 'http') {
      const c = httpCase(rnd, target.port, target.token);
      bump(r.sent.http, c.kind);
      const a = await rawRequest(target.port, c.bytes, 5000);
      const key = a.status !== null ? String(a.status) : a.ended === 'timeout' ? 'timeout' : 'closed without status';
      bump(r.answers.http, key);
      if ((a.status ?? 0) >= 500 || a.ended === 'timeout') fail(`${where}: http ${c.kind} answered ${key}: ${JSON.stringify(c.bytes.toString('latin1').slice(0, 120))}`);
    } else if (cat === 'ws') {
      const c = wsCase(rnd);
      bump(r.sent.ws, c.kind);
      let raw;
      try {
        raw = await rawWebSocket(target.port, target.token);
      } catch (e) {
        fail(`${where}: WebSocket upgrade failed: ${(e as Error).message}`);
        bump(r.answers.ws, 'upgrade failed');
        continue;
      }
      raw.socket.write(c.bytes);
      const closed = await raw.closed(200);
      raw.socket.destroy();
      bump(r.answers.ws, closed ? `close ${closed.code}${closed.reason ? '' : ' (no reason)'}` : 'open (no close)');
      if (closed && CLOSE_REASONS[closed.code] && !closed.reason) fail(`${where}: ws ${c.kind} closed with ${closed.code} but no reason`);
    } else {
      const c = apiCase(rnd, i + 1);
      bump(r.sent.api, c.kind);
      if (!api.open_) {
        bump(r.answers.api, 'reconnect');
        await api.open();
      }
      const a = await api.send(c.text, c.id, 15_000);
      const key = a === 'timeout' ? 'timeout' : a === null ? 'connection closed' : a.ok ? 'ok' : (a.error?.code ?? 'error');
      bump(r.answers.api, key);
      if (a === 'timeout' || a === null) fail(`${where}: api ${c.kind} got ${key}: ${c.text.slice(0, 160)}`);
    }
    r.cases++;
    if (!target.alive()) {
      fail(`${where}: the host process exited:\n${target.log().slice(-2000)}`);
      break;
    }
    if ((i + 1) % checkEvery === 0) await check(`after case ${i}`);
  }
  api.close();
  if (!(await check('at the end'))) fail(`at the end: the host process exited:\n${target.log().slice(-2000)}`);
  r.seconds = (Date.now() - t0) / 1000;
  return r;
}

export function formatReport(r: ApiFuzzReport): string {
  const fmt = (m: Record<string, number>) => Object.entries(m).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', ');
  const total = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
  const lines = [`${r.cases} cases in ${r.seconds.toFixed(1)} s${r.stoppedAtDeadline ? ' (stopped at the time limit)' : ''}`];
  for (const cat of ['http', 'ws', 'api'] as const) {
    lines.push(`${cat.padEnd(4)} sent ${total(r.sent[cat])} (${fmt(r.sent[cat])})`);
    lines.push(`     answered ${fmt(r.answers[cat])}`);
  }
  lines.push(`checks: engine.ping ok ${r.pings.ok}, failed ${r.pings.failed}; tokened GET ok ${r.pages.ok}, failed ${r.pages.failed}`);
  lines.push(`failures: ${r.failures.length}`);
  for (const f of r.failures.slice(0, 20)) lines.push(`  FAIL ${f}`);
  return lines.join('\n');
}
