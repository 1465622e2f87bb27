// Hardening II item 9, measured on the configuration and the handlers as units (there is
// no Electron runtime here): the fuses in electron-builder.yml, each host's own CSP, and the
// navigation guards on will-navigate, will-frame-navigate and will-redirect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_INDEX_URL, ELECTRON_CSP, serveAppProtocol, type ProtocolLike } from '../../../electron/app-protocol';
import { GUARDED_NAVIGATION_EVENTS, installNavigationGuards, type NavigationEvents } from '../../../electron/navigation';
import { CSP as BROWSER_CSP } from '../../../main/hosts/browser/server';
import { ROOT } from '../../helpers/host';

const require = createRequire(import.meta.url);

test('fuses: NODE_OPTIONS is ignored and file:// gets no extra privileges in the packaged app (schema-valid)', async () => {
  const yaml = require('js-yaml');
  const config = yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8'));
  assert.equal(config.electronFuses.enableNodeOptionsEnvironmentVariable, false);
  assert.equal(config.electronFuses.grantFileProtocolExtraPrivileges, false);
  assert.equal(config.electronFuses.runAsNode, false);
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
  const { DebugLogger } = require('builder-util');
  await validateConfiguration(config, new DebugLogger(false));
});

test('CSP: the Electron renderer (IPC only) may connect to no WebSocket; the browser host keeps its own; the page itself names no ws: origin', async () => {
  assert.doesNotMatch(ELECTRON_CSP, /ws:|wss:|\*/);
  assert.match(ELECTRON_CSP, /connect-src 'self';/);
  assert.match(BROWSER_CSP, /connect-src 'self'/, 'the browser host reaches its own WebSocket as self');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(`${ROOT}renderer/index.html`, 'utf8'))?.[1] ?? '';
  assert.ok(meta, 'index.html has a CSP meta tag');
  assert.doesNotMatch(meta, /ws:\/\/127\.0\.0\.1|ws:\/\/localhost/);
  // app:// sends ELECTRON_CSP with every page it serves
  const dir = mkdtempSync(join(tmpdir(), 'lino-csp-'));
  try {
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'app.js'), '1');
    let handler: Parameters<ProtocolLike['handle']>[1] | null = null;
    serveAppProtocol({ handle: (_s, h) => { handler = h; } }, dir, () => {});
    const page = await handler!({ url: APP_INDEX_URL, method: 'GET' });
    assert.equal(page.headers.get('content-security-policy'), ELECTRON_CSP);
    const script = await handler!({ url: 'app://workbench/app.js', method: 'GET' });
    assert.equal(script.headers.get('content-security-policy'), null, 'scripts carry no page policy');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('navigation: will-navigate, will-frame-navigate and will-redirect away from the app are refused; the app\'s own index is allowed', () => {
  const listeners = new Map<string, Parameters<NavigationEvents['on']>[1]>();
  const logs: string[] = [];
  installNavigationGuards({ on: (name, l) => listeners.set(name, l) }, APP_INDEX_URL, (m) => logs.push(m));
  assert.deepEqual([...listeners.keys()].sort(), [...GUARDED_NAVIGATION_EVENTS].sort());
  for (const name of GUARDED_NAVIGATION_EVENTS) {
    for (const [url, allowed] of [['https://evil.example/', false], ['file:///etc/passwd', false], ['app://workbench/other.html', false], [APP_INDEX_URL, true]] as const) {
      let prevented = false;
      const ev = { url, preventDefault: () => { prevented = true; } };
      listeners.get(name)!(ev);
      assert.equal(prevented, !allowed, `${name} to ${url}`);
      // the older signature (url as the second argument) is guarded the same way
      let prevented2 = false;
      listeners.get(name)!({ preventDefault: () => { prevented2 = true; } }, url);
      assert.equal(prevented2, !allowed, `${name} (url argument) to ${url}`);
    }
  }
  assert.ok(logs.some((l) => /refused will-frame-navigate to https:\/\/evil\.example\//.test(l)));
  assert.match(readFileSync(`${ROOT}electron/main.ts`, 'utf8'), /installNavigationGuards\(contents/, 'the host installs the guards on every web contents');
});
