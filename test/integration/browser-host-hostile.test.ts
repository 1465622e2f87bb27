// Hostile input to a real browser-mode host process (main/hosts/browser/main.ts with its
// forked engine). Each case sends what used to end the process, then checks that the host still
// serves a tokened GET and that the engine still answers engine.ping.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHostProcess, type HostProcess } from '../helpers/host-process';
import { rawRequest, rawWebSocket, encodeFrame, apiClient, enginePings } from '../helpers/raw-client';
import { parseRequestTarget } from '../../main/hosts/browser/request-target';
import { SELFTEST_MAX_SYNC_MS } from '../../main/api/contract';

let h: HostProcess;
before(async () => {
  h = await startHostProcess();
});
after(async () => {
  await h?.stop();
});

async function assertStillServing(what: string) {
  assert.ok(h.alive(), `the host process exited after ${what}:\n${h.log()}`);
  const page = await rawRequest(h.port, `GET /?token=${h.token} HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nConnection: close\r\n\r\n`);
  assert.equal(page.status, 200, `tokened GET / after ${what}`);
  assert.ok(await enginePings(h.port, h.token), `engine.ping after ${what}`);
}

test('parseRequestTarget answers 400 for targets that are not a path, never throws', () => {
  for (const bad of [undefined, '', 'http://[/', 'http://127.0.0.1/', '*', 'index.html', '/%E0%A4%A', '/%', '/%zz', '/a%00b', '/%ff%fe']) {
    const r = parseRequestTarget(bad);
    assert.equal(r.ok, false, String(bad));
    assert.equal(!r.ok && r.status, 400);
  }
  const ok = parseRequestTarget('//evil.example/app.js?token=a%2Bb');
  assert.ok(ok.ok);
  assert.equal(ok.path, '//evil.example/app.js', 'a leading // stays a path on this host');
  assert.equal(ok.query.get('token'), 'a+b');
  const enc = parseRequestTarget('/..%2F..%2Fpackage.json');
  assert.ok(enc.ok && enc.path === '/../../package.json', 'decoded here; the static handler keeps it inside its folder');
});

test('a request target that is not a URL gets 400 from the HTTP and the upgrade handler, without a token (must-fix 1)', async () => {
  const host = `Host: 127.0.0.1:${h.port}\r\n`;
  const http = await rawRequest(h.port, `GET http://[/ HTTP/1.1\r\n${host}\r\n`);
  assert.equal(http.status, 400, http.text);
  assert.match(http.text, /bad request/);
  const upgrade = await rawRequest(h.port, `GET http://[/ HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  assert.equal(upgrade.status, 400, upgrade.text);
  await assertStillServing('GET http://[/');
});

test('a tokened request with malformed percent-encoding gets 400, on plain HTTP and on upgrade (must-fix 1)', async () => {
  const host = `Host: 127.0.0.1:${h.port}\r\n`;
  const http = await rawRequest(h.port, `GET /%E0%A4%A?token=${h.token} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
  assert.equal(http.status, 400, http.text);
  assert.match(http.text, /malformed percent-encoding/);
  const upgrade = await rawRequest(
    h.port,
    `GET /api%E0%A4%A?token=${h.token} HTTP/1.1\r\n${host}Origin: http://127.0.0.1:${h.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  assert.equal(upgrade.status, 400, upgrade.text);
  await assertStillServing('GET /%E0%A4%A');
});

test('a client that resets its connection mid-upgrade does not take the host down', async () => {
  for (let i = 0; i < 20; i++) {
    const { connect } = await import('node:net');
    const s = connect({ host: '127.0.0.1', port: h.port });
    s.on('error', () => {});
    s.write(`GET /other HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`, () => s.resetAndDestroy());
  }
  await new Promise((r) => setTimeout(r, 200));
  await assertStillServing('20 reset upgrades');
});

test('a bad WebSocket frame closes that client with a code and a reason; other clients carry on (must-fix 3)', async () => {
  const bystander = await apiClient(h.port, h.token);
  const cases: { what: string; frame: Buffer; code: number; reason: RegExp }[] = [
    { what: 'invalid UTF-8 text frame', frame: encodeFrame({ opcode: 0x1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }), code: 1007, reason: /UTF-8/ },
    // 2^63 - 1: ws's WS_ERR_UNSUPPORTED_MESSAGE_LENGTH.
    { what: '64-bit length over 2^53', frame: encodeFrame({ opcode: 0x2, length: (1n << 63n) - 1n }), code: 1009, reason: /too big/ },
    { what: 'frame over 64 MiB', frame: encodeFrame({ opcode: 0x1, length: 64n * 1024n * 1024n + 1n }), code: 1009, reason: /64 MiB/ },
    { what: 'unmasked frame', frame: encodeFrame({ opcode: 0x1, payload: Buffer.from('{}'), mask: false }), code: 1002, reason: /protocol error/ },
    { what: 'reserved opcode', frame: encodeFrame({ opcode: 0x3, payload: Buffer.from('x') }), code: 1002, reason: /protocol error/ },
  ];
  for (const c of cases) {
    const raw = await rawWebSocket(h.port, h.token);
    raw.socket.write(c.frame);
    const closed = await raw.closed();
    raw.socket.destroy();
    assert.ok(closed, `${c.what}: the host sent no close frame`);
    assert.equal(closed.code, c.code, c.what);
    assert.match(closed.reason, c.reason, c.what);
    assert.ok(h.alive(), `the host process exited after a ${c.what}:\n${h.log()}`);
  }
  const t = 4242;
  const ping = await bystander.call('engine.ping', { t });
  assert.equal(ping.ok, true, 'a client connected before the bad frames is still served');
  assert.equal(ping.result.t, t);
  bystander.close();
  await assertStillServing('bad WebSocket frames');
});

test(`a self-test with a huge syncMs is refused naming the field and the maximum (${SELFTEST_MAX_SYNC_MS} ms); at the cap pings wait one step at most`, async () => {
  const c = await apiClient(h.port, h.token);
  try {
    const r = await c.call('jobs.start', { kind: 'selftest', params: { steps: 3, size: 8, syncMs: 1e9 } });
    assert.equal(r.ok, false);
    assert.equal(r.error!.code, 'invalid_params');
    assert.match(r.error!.message, /'params\.syncMs'/);
    assert.match(r.error!.message, new RegExp(`at most ${SELFTEST_MAX_SYNC_MS} ms`));
    const t0 = Date.now();
    const ping = await c.call('engine.ping', { t: 1 }, 5000);
    assert.equal(ping.ok, true, `engine.ping after the refused self-test: ${ping.error?.message}`);
    assert.ok(Date.now() - t0 < 5000);
    const jobs = await c.call('jobs.list', {});
    assert.ok(jobs.ok && !jobs.result.some((j: { kind: string; state: string }) => j.kind === 'selftest' && j.state === 'running'), 'no self-test was started');
    // At the cap, a ping waits at most one spinning step.
    const job = await c.call('jobs.start', { kind: 'selftest', params: { steps: 3, size: 8, syncMs: SELFTEST_MAX_SYNC_MS } });
    assert.equal(job.ok, true, job.error?.message);
    await new Promise((r) => setTimeout(r, 300));
    const t1 = Date.now();
    const during = await c.call('engine.ping', { t: 2 }, 10_000);
    const waited = Date.now() - t1;
    assert.equal(during.ok, true);
    assert.ok(waited < SELFTEST_MAX_SYNC_MS + 1500, `engine.ping during a self-test at the cap took ${waited} ms`);
    await c.call('jobs.cancel', { id: job.result.id });
  } finally {
    c.close();
  }
  await assertStillServing('a refused self-test');
});

test('a CONNECT request is answered 405, not dropped', async () => {
  const r = await rawRequest(h.port, `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\n\r\n`);
  assert.equal(r.status, 405, r.text);
  await assertStillServing('CONNECT');
});
