// The app:// protocol that serves the renderer in the Electron host: only regular files inside the
// renderer folder, each refusal tested (plain Node: the handler is registered on a recording fake).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAppRequest, serveAppProtocol, APP_INDEX_URL, type ProtocolLike } from '../../../electron/app-protocol';

const base = mkdtempSync(join(tmpdir(), 'lino-app-protocol-'));
const root = join(base, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>w</title>');
writeFileSync(join(root, 'app.js'), 'console.log(1)');
writeFileSync(join(root, 'assets', 'icon.svg'), '<svg/>');
writeFileSync(join(root, 'noext'), 'x');
writeFileSync(join(base, 'secret.txt'), 'outside');
symlinkSync(join(base, 'secret.txt'), join(root, 'link.js'));
symlinkSync(base, join(root, 'up'));
test.after(() => rmSync(base, { recursive: true, force: true }));

test('app://workbench/ serves the renderer folder with its content types', () => {
  const r = resolveAppRequest(APP_INDEX_URL, root);
  assert.ok(r.ok && r.mime.startsWith('text/html'), JSON.stringify(r));
  assert.ok(resolveAppRequest('app://workbench/', root).ok, 'the bare origin is the index');
  const js = resolveAppRequest('app://workbench/app.js?v=1#x', root);
  assert.ok(js.ok && js.mime.startsWith('text/javascript'));
  const svg = resolveAppRequest('app://workbench/assets/icon.svg', root);
  assert.ok(svg.ok && svg.mime === 'image/svg+xml');
});

test('app:// refuses every way out of the renderer folder, naming why', () => {
  const refusals: [string, RegExp][] = [
    ['app://workbench/../secret.txt', /./],
    ['app://workbench/assets/../../secret.txt', /./],
    ['app://workbench/%2e%2e/secret.txt', /encoded|no such file/], // the URL parser may fold %2e%2e into a dot segment first
    ['app://workbench/..%2fsecret.txt', /encoded/],
    ['app://workbench/..%5csecret.txt', /encoded/],
    ['app://workbench/index.html%00.js', /encoded/],
    ['app://workbench/link.js', /outside/],
    ['app://workbench/up/secret.txt', /outside/],
    ['app://workbench/assets', /not a regular file/],
    ['app://workbench/missing.js', /no such file/],
    ['app://workbench/noext', /no type/],
    ['app://evil/index.html', /not app:\/\/workbench/],
    ['file:///etc/passwd', /not app:\/\/workbench/],
    ['app://workbench/%E0%A4%A', /malformed|no such/],
    ['not a url', /not a URL/],
  ];
  for (const [url, why] of refusals) {
    const r = resolveAppRequest(url, root);
    assert.equal(r.ok, false, `${url} must be refused`);
    if (!r.ok) assert.match(r.reason, why, url);
  }
});

test('the registered handler answers files with their type, refusals with 400/404 (logged), other methods with 405', async () => {
  let handler: Parameters<ProtocolLike['handle']>[1] | undefined;
  const logged: string[] = [];
  serveAppProtocol({ handle: (scheme, h) => { assert.equal(scheme, 'app'); handler = h; } }, root, (m) => logged.push(m));
  assert.ok(handler);
  const ok = await handler!({ url: APP_INDEX_URL, method: 'GET' });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(await ok.text(), '<!doctype html><title>w</title>');
  const out = await handler!({ url: 'app://workbench/link.js', method: 'GET' });
  assert.equal(out.status, 404);
  assert.doesNotMatch(await out.text(), /outside/, 'the file is not served');
  assert.equal((await handler!({ url: 'app://workbench/..%2fsecret.txt', method: 'GET' })).status, 400);
  assert.equal((await handler!({ url: APP_INDEX_URL, method: 'POST' })).status, 405);
  assert.equal(logged.length, 2);
  assert.match(logged[0]!, /refused app:\/\/workbench\/link\.js: outside the renderer folder/);
});
