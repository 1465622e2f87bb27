// Browser mode listens on 127.0.0.1 with a session token and refuses foreign Host/Origin headers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import WebSocket from 'ws';
import { startTestHost, ensureRendererBuilt, type TestHost } from '../helpers/host';

let t: TestHost;
before(async () => {
  ensureRendererBuilt();
  t = await startTestHost();
});
after(() => t.stop());

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: t.host.port, path, headers: { host: `127.0.0.1:${t.host.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function wsOpen(path: string, headers: Record<string, string>): Promise<{ ok: true; ws: WebSocket } | { ok: false; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.host.port}${path}`, { headers });
    ws.on('open', () => resolve({ ok: true, ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ ok: false, status: res.statusCode! }));
    ws.on('error', () => {});
  });
}

const origin = () => `http://127.0.0.1:${t.host.port}`;

test('listens on the loopback interface only', () => {
  const addr = t.host.server.address();
  assert.ok(addr && typeof addr === 'object' && addr.address === '127.0.0.1');
});

test('serves the app with the token, sets a same-site cookie and a strict CSP', async () => {
  const r = await get(`/?token=${t.host.token}`);
  assert.equal(r.status, 200);
  assert.match(r.body, /<div id="root">/);
  assert.match(String(r.headers['set-cookie']), /lino_token=.*HttpOnly; SameSite=Strict/);
  assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
  const js = await get('/app.js', { cookie: `lino_token=${t.host.token}` });
  assert.equal(js.status, 200);
});

test('refuses HTTP requests without or with a wrong token', async () => {
  assert.equal((await get('/')).status, 401);
  assert.equal((await get('/app.js')).status, 401);
  assert.equal((await get('/?token=wrong')).status, 401);
  assert.equal((await get('/', { cookie: 'lino_token=wrong' })).status, 401);
});

test('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
  const r = await get(`/?token=${t.host.token}`, { host: `evil.example:${t.host.port}` });
  assert.equal(r.status, 403);
});

test('refuses a cross-site Origin even with the token', async () => {
  const r = await get(`/?token=${t.host.token}`, { origin: 'http://evil.example' });
  assert.equal(r.status, 403);
});

test('does not serve files outside the renderer folder', async () => {
  const r = await get(`/..%2F..%2Fpackage.json?token=${t.host.token}`);
  assert.equal(r.status, 404);
});

test('refuses WebSocket upgrades without token, with a foreign or missing Origin, or a foreign Host', async () => {
  assert.deepEqual(await wsOpen('/api', { origin: origin() }), { ok: false, status: 401 });
  assert.deepEqual(await wsOpen(`/api?token=${t.host.token}`, { origin: 'http://evil.example' }), { ok: false, status: 403 });
  assert.deepEqual(await wsOpen(`/api?token=${t.host.token}`, {}), { ok: false, status: 403 });
  assert.deepEqual(await wsOpen(`/api?token=${t.host.token}`, { origin: origin(), host: `evil.example:${t.host.port}` }), { ok: false, status: 403 });
  assert.deepEqual(await wsOpen(`/other?token=${t.host.token}`, { origin: origin() }), { ok: false, status: 404 });
});

test('a valid WebSocket reaches the engine and gets validation errors for bad calls', async () => {
  const r = await wsOpen(`/api?token=${t.host.token}`, { origin: origin() });
  assert.ok(r.ok);
  const ws = r.ws;
  const replies = new Map<number, any>();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.kind === 'response') replies.set(m.id, m);
  });
  const call = (id: number, method: string, params: unknown) => {
    ws.send(JSON.stringify({ id, method, params }));
    return new Promise<any>((resolve) => {
      const tick = () => (replies.has(id) ? resolve(replies.get(id)) : setTimeout(tick, 5));
      tick();
    });
  };
  const ping = await call(1, 'engine.ping', { t: 7 });
  assert.equal(ping.ok, true);
  assert.equal(ping.result.t, 7);
  const bad = await call(2, 'files.list', { root: 'home', rel: '../../etc' });
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, 'forbidden');
  const unknown = await call(3, 'shell.exec', {});
  assert.equal(unknown.error.code, 'unknown_method');
  ws.send('not json');
  const invalid = await new Promise<any>((resolve) => {
    const tick = () => (replies.has(-1) ? resolve(replies.get(-1)) : setTimeout(tick, 5));
    tick();
  });
  assert.equal(invalid.error.code, 'invalid_params');
  ws.close();
});
