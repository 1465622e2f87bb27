// Electron host: the app's session denies every web permission request and check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installPermissionGuards, type PermissionSessionLike } from '../../../electron/permissions';

/** Records the handlers the way Electron's Session keeps them, so the test can call them. */
function fakeSession() {
  const h: { request?: Parameters<PermissionSessionLike['setPermissionRequestHandler']>[0]; check?: Parameters<PermissionSessionLike['setPermissionCheckHandler']>[0]; device?: Parameters<PermissionSessionLike['setDevicePermissionHandler']>[0] } = {};
  const ses: PermissionSessionLike = {
    setPermissionRequestHandler: (f) => void (h.request = f),
    setPermissionCheckHandler: (f) => void (h.check = f),
    setDevicePermissionHandler: (f) => void (h.device = f),
  };
  return { ses, h };
}

const PERMISSIONS = ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'pointerLock', 'hid', 'serial', 'usb', 'fileSystem', 'display-capture', 'unknown'];

test('every permission request from the renderer is denied, and logged', async () => {
  const { ses, h } = fakeSession();
  const logged: string[] = [];
  installPermissionGuards(ses, (m) => logged.push(m));
  assert.ok(h.request, 'a request handler is installed');
  for (const p of PERMISSIONS) {
    const granted = await new Promise<boolean>((resolve) => h.request!({}, p, resolve, { requestingUrl: 'file:///app/index.html' }));
    assert.equal(granted, false, p);
  }
  assert.equal(logged.length, PERMISSIONS.length);
  assert.match(logged[0], /refused .*'media' permission/);
});

test('every permission check and every device permission is denied', () => {
  const { ses, h } = fakeSession();
  installPermissionGuards(ses);
  assert.ok(h.check && h.device, 'check and device handlers are installed');
  for (const p of PERMISSIONS) assert.equal(h.check!({}, p, 'file://', {}), false, p);
  assert.equal(h.device!({ deviceType: 'hid', origin: 'file://' }), false);
});

test('the Electron host installs the guards on its session once the app is ready', () => {
  const main = readFileSync(fileURLToPath(new URL('../../../electron/main.ts', import.meta.url)), 'utf8');
  const ready = main.indexOf('await app.whenReady();');
  const guard = main.indexOf('installPermissionGuards(session.defaultSession');
  assert.ok(ready >= 0 && guard > ready, 'installPermissionGuards(session.defaultSession, ...) after app.whenReady()');
  assert.ok(guard < main.indexOf('new BrowserWindow('), 'before the window (and its renderer) exists');
});
