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

// Packing needs the runtime's files (electronDist), not a display: electron-builder's own --dir pack.
const runtimeFiles = Boolean(rt.bin) && (rt.ok || /no display/.test(rt.reason ?? ''));
test('electron-builder --dir packs the app (resources/app.asar) from the local Electron runtime', { skip: runtimeFiles ? false : `no Electron runtime to pack with: ${rt.reason}`, timeout: 600_000 }, async () => {
  const { mkdtempSync, existsSync, readdirSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const out = mkdtempSync(join(tmpdir(), 'lino-pack-'));
  const built = spawnSync(process.execPath, [`${ROOT}scripts/build.mjs`], { stdio: 'inherit' });
  assert.equal(built.status, 0);
  const r = spawnSync('npx', ['electron-builder', '--dir', '--config', 'electron-builder.yml', '-c.electronDist=node_modules/electron/dist', `-c.directories.output=${out}`], { cwd: ROOT, encoding: 'utf8', timeout: 540_000 });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  const unpacked = readdirSync(out).find((d) => d.endsWith('-unpacked'));
  assert.ok(unpacked, `a *-unpacked folder in ${out}`);
  assert.ok(existsSync(join(out, unpacked, 'resources', 'app.asar')), 'resources/app.asar');
});
