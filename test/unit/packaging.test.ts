// electron-builder.yml cannot be exercised here (electron-builder downloads Electron), so it is
// at least validated against electron-builder's own configuration schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
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

test('electron-builder.yml flips the Electron fuses that close the app to code injection (issue 10)', () => {
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
