// The desktop app itself, where an Electron runtime and a display exist; elsewhere it says why it skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/host';
// @ts-expect-error plain .mjs helper shared with the start script
import { electronRuntime } from '../../scripts/electron-runtime.mjs';

const rt = electronRuntime(ROOT) as { ok: boolean; bin?: string; reason?: string };
if (!rt.ok) console.log(`# skipping Electron runtime test: ${rt.reason}`);

test('the Electron app starts, loads the renderer and reaches the engine', { skip: rt.ok ? false : `Electron runtime unavailable: ${rt.reason}`, timeout: 180_000 }, async () => {
  const built = spawnSync(process.execPath, [`${ROOT}scripts/build.mjs`], { stdio: 'inherit' });
  assert.equal(built.status, 0);
  const { _electron } = await import('playwright-core');
  const app = await _electron.launch({ executablePath: rt.bin, args: [ROOT, '--workspace', `${ROOT}test-results/electron-ws`] });
  const page = await app.firstWindow();
  await page.getByRole('heading', { name: 'Workspace' }).waitFor();
  const backend = await page.getByTestId('engine-backend').textContent({ timeout: 60_000 });
  assert.match(backend ?? '', /Backend:/);
  // The sandboxed renderer has no Node: require is not defined.
  assert.equal(await page.evaluate(() => typeof (globalThis as any).require), 'undefined');
  await app.close();
});
