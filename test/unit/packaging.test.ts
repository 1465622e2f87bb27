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

test('the schema validation rejects a broken configuration', async () => {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
  const { DebugLogger } = require('builder-util');
  await assert.rejects(validateConfiguration({ linux: { target: 42 }, nonsense: true }, new DebugLogger(false)));
});
