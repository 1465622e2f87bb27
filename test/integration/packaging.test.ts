// electron-builder.yml cannot be exercised here (electron-builder downloads Electron), so it is
// at least validated against electron-builder's own configuration schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/host';

const require = createRequire(import.meta.url);

test('electron-builder.yml passes electron-builder schema validation', async () => {
  const yaml = require('js-yaml');
  const config = yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8'));
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
  const { DebugLogger } = require('builder-util');
  await validateConfiguration(config, new DebugLogger(false));
  assert.ok(existsSync(`${ROOT}${config.icon}`), 'icon file exists');
  assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
});

test('electron-builder.yml: mac universal, Windows x64 and arm64; no TypeScript sources shipped', () => {
  const yaml = require('js-yaml');
  const config = yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8'));
  assert.deepEqual(config.mac.target, [{ target: 'dmg', arch: ['universal'] }]);
  assert.deepEqual(config.win.target, [{ target: 'nsis', arch: ['x64', 'arm64'] }]);
  assert.ok(!config.files.some((f: string) => /\.ts$/.test(f) && !f.startsWith('!')), `files ship no .ts sources: ${config.files.join(', ')}`);
  // what Electron loads and what it launches as the engine are bundles under dist/
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
  assert.match(pkg.main, /^dist\//);
  assert.match(readFileSync(`${ROOT}electron/main.ts`, 'utf8'), /'engine', 'engine-process\.js'/);
});

test('package.json: the deb target\'s homepage and repository; test-only and CLI-only packages are devDependencies', () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
  // electron-builder's FpmTarget throws without a homepage (deb's Homepage field)
  assert.match(pkg.homepage, /^https:\/\//);
  assert.match(pkg.repository.url, /^git\+https:\/\/.+\.git$/);
  const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8'));
  for (const name of ['npyjs', 'tsx']) {
    assert.equal(pkg.dependencies[name], undefined, `${name} is not a runtime dependency`);
    assert.ok(pkg.devDependencies[name], `${name} is a devDependency`);
    assert.equal(lock.packages[''].devDependencies[name], pkg.devDependencies[name], `package-lock.json agrees on ${name}`);
    assert.equal(lock.packages[`node_modules/${name}`].dev, true, `package-lock.json marks ${name} dev`);
  }
  // no app code imports npyjs; tsx only in main/util/workers.ts, which starts workers from the sources
  const grep = (re: string) => spawnSync('grep', ['-rlE', re, 'main', 'electron', 'renderer/src'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  assert.deepEqual(grep("from 'npyjs"), [], 'nothing outside test/ imports npyjs');
  for (const f of grep("'tsx/")) assert.match(f, /^main\/util\/workers\.ts$/, `${f}: tsx only for runs from TypeScript sources`);
});

test('electron-builder.yml flips the Electron fuses that close the app to code injection', () => {
  const yaml = require('js-yaml');
  const config = yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8'));
  // ELECTRON_RUN_AS_NODE and --inspect would turn the signed app into a plain Node for any local
  // process; the asar checks make the packaged code the only code it loads.
  assert.deepEqual(
    {
      runAsNode: config.electronFuses?.runAsNode,
      enableNodeCliInspectArguments: config.electronFuses?.enableNodeCliInspectArguments,
      enableEmbeddedAsarIntegrityValidation: config.electronFuses?.enableEmbeddedAsarIntegrityValidation,
      onlyLoadAppFromAsar: config.electronFuses?.onlyLoadAppFromAsar,
    },
    { runAsNode: false, enableNodeCliInspectArguments: false, enableEmbeddedAsarIntegrityValidation: true, onlyLoadAppFromAsar: true },
  );
  // The engine runs in a utilityProcess, which does not need ELECTRON_RUN_AS_NODE.
  assert.doesNotMatch(readFileSync(`${ROOT}electron/engine-launcher.ts`, 'utf8'), /ELECTRON_RUN_AS_NODE|child_process/);
  assert.equal(config.asar, true, 'onlyLoadAppFromAsar needs the app packed into app.asar');
});

test('the schema validation rejects a misspelt fuse', async () => {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
  const { DebugLogger } = require('builder-util');
  await validateConfiguration({ electronFuses: { runAsNode: false } }, new DebugLogger(false));
  await assert.rejects(validateConfiguration({ electronFuses: { runAsNodeX: false } }, new DebugLogger(false)), /electronFuses/);
});

test('the schema validation rejects a broken configuration', async () => {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
  const { DebugLogger } = require('builder-util');
  await assert.rejects(validateConfiguration({ linux: { target: 42 }, nonsense: true }, new DebugLogger(false)));
});

test('bin/lino.mjs without tsx (a production install) says how to get the CLI instead of a module error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-bin-'));
  try {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(`${ROOT}bin/lino.mjs`, join(dir, 'bin', 'lino.mjs'));
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'lino.mjs'), 'version'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /tsx, which is not installed: run 'npm ci'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("electron-builder's deb (FpmTarget) metadata check passes with package.json, and fails without a homepage", async () => {
  const yaml = require('js-yaml');
  const config = yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8'));
  const FpmTarget = require('app-builder-lib/out/targets/FpmTarget').default;
  const { AppInfo } = require('app-builder-lib/out/appInfo');
  const { checkMetadata } = require('app-builder-lib/out/util/packageMetadata');
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
  checkMetadata(pkg, pkg, 'package.json', 'package.json');
  // FpmTarget's own check, run on package.json's metadata (the rest of a packager is not needed)
  const meta = (metadata: Record<string, unknown>) => {
    const appInfo = { info: { metadata, repositoryInfo: Promise.resolve(null) }, notNullDevMetadata: metadata, linuxPackageName: 'lino-workbench' };
    const packager = { appInfo: { ...appInfo, computePackageUrl: () => AppInfo.prototype.computePackageUrl.call(appInfo) }, info: { metadata } };
    return FpmTarget.prototype.computeFpmMetaInfoOptions.call({ packager, options: { maintainer: config.linux.maintainer } });
  };
  const ok = await meta(pkg);
  assert.equal(ok.url, pkg.homepage);
  const { homepage: _h, ...bare } = pkg;
  await assert.rejects(meta(bare), /Please specify project homepage/);
});
