// The Electron host's IPC handlers and their checks, in plain Node (no Electron runtime needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerIpc, isTrustedUrl, CALL_CHANNEL, type IpcMainLike, type InvokeEventLike } from '../../../electron/ipc';
import { parseParams, isMethod, ApiError } from '../../../main/api/contract';

const INDEX = 'app://workbench/index.html';

/** Records handlers the way Electron's ipcMain.handle does, so the test can invoke them. */
function fakeIpc() {
  const handlers = new Map<string, (e: InvokeEventLike, ...a: unknown[]) => Promise<unknown>>();
  const ipc: IpcMainLike = { handle: (ch, l) => void handlers.set(ch, l) };
  return { ipc, invoke: (e: InvokeEventLike, ...a: unknown[]) => handlers.get(CALL_CHANNEL)!(e, ...a) };
}

// A service that validates exactly as WorkbenchService does and records what got through.
function validatingService() {
  const reached: unknown[] = [];
  return {
    reached,
    async call(method: unknown, params: unknown) {
      if (!isMethod(method)) throw new ApiError(`unknown method '${String(method)}'`, 'unknown_method');
      const p = parseParams(method, params);
      reached.push([method, p]);
      return { echoed: method };
    },
    onEvent: () => () => {},
  };
}

const trusted: InvokeEventLike = { senderFrame: { url: INDEX }, sender: { id: 1 } };

test('isTrustedUrl accepts only the app renderer at app://workbench/index.html', () => {
  assert.equal(isTrustedUrl(INDEX, INDEX), true);
  assert.equal(isTrustedUrl(`${INDEX}#view`, INDEX), true);
  assert.equal(isTrustedUrl('https://evil.example/index.html', INDEX), false);
  assert.equal(isTrustedUrl('file:///tmp/evil/index.html', INDEX), false);
  assert.equal(isTrustedUrl('app://evil/index.html', INDEX), false);
  assert.equal(isTrustedUrl('app://workbench/other.html', INDEX), false);
  assert.equal(isTrustedUrl('app://workbench/index.html?x=1', INDEX), false);
  // file:// pages are never trusted, even the same path (the renderer is no longer served from file://).
  assert.equal(isTrustedUrl('file:///opt/lino/index.html', 'file:///opt/lino/index.html'), false);
  assert.equal(isTrustedUrl(undefined, INDEX), false);
  assert.equal(isTrustedUrl('not a url', INDEX), false);
});

test('calls from an untrusted sender are refused before the service sees them', async () => {
  const { ipc, invoke } = fakeIpc();
  const svc = validatingService();
  registerIpc(ipc, svc, (e) => isTrustedUrl(e.senderFrame?.url, INDEX));
  const r = (await invoke({ senderFrame: { url: 'https://evil.example/' }, sender: { id: 2 } }, 'engine.ping', { t: 1 })) as any;
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'forbidden');
  const r2 = (await invoke({ senderFrame: null, sender: { id: 3 } }, 'engine.ping', { t: 1 })) as any;
  assert.equal(r2.ok, false);
  assert.equal(svc.reached.length, 0);
});

test('payloads are schema-validated; valid calls pass through', async () => {
  const { ipc, invoke } = fakeIpc();
  const svc = validatingService();
  registerIpc(ipc, svc, (e) => isTrustedUrl(e.senderFrame?.url, INDEX));
  const bad = (await invoke(trusted, 'workspace.open', { dir: '/etc/passwd' })) as any;
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, 'invalid_params');
  assert.equal(bad.error.field, 'dir');
  const unknown = (await invoke(trusted, 'require', 'child_process')) as any;
  assert.equal(unknown.error.code, 'unknown_method');
  const good = (await invoke(trusted, 'engine.ping', { t: 9 })) as any;
  assert.deepEqual(good, { ok: true, result: { echoed: 'engine.ping' } });
  assert.deepEqual(svc.reached, [['engine.ping', { t: 9 }]]);
});
