// TensorFlow.js is pinned and fenced: package.json and the lock pin every @tensorflow/* package to
// the one version main/ops/tfjs-internals/ was tested with, and any other version is refused at load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/host';
import { TESTED_TFJS_VERSION, checkTfjsVersion } from '../../../main/ops/tfjs-internals/tfjs-version';
import * as tf from '../../../main/ops/tf';

const json = (f: string) => JSON.parse(readFileSync(join(ROOT, f), 'utf8'));

test('an untested tfjs-core is refused with a message naming both versions and how to upgrade', () => {
  assert.throws(() => checkTfjsVersion('4.23.0'), (e: Error) =>
    e.message.includes('4.23.0') && e.message.includes(`tested with ${TESTED_TFJS_VERSION}`) && e.message.includes('docs/CONVENTIONS.md'));
  assert.doesNotThrow(() => checkTfjsVersion(TESTED_TFJS_VERSION));
});

test('the installed tfjs-core is the tested one (the check passed at load)', () => {
  assert.equal(tf.version_core, TESTED_TFJS_VERSION);
});

test('package.json and package-lock.json pin every @tensorflow/* package to exactly the tested version', () => {
  const pkg = json('package.json');
  const lockRoot = json('package-lock.json').packages[''];
  for (const [where, manifest] of [['package.json', pkg], ['package-lock.json', lockRoot]] as const) {
    const deps: Record<string, string> = { ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.devDependencies };
    const tfjs = Object.entries(deps).filter(([name]) => name.startsWith('@tensorflow/'));
    assert.ok(tfjs.length >= 4, `${where}: no @tensorflow/* dependencies found`);
    for (const [name, range] of tfjs) assert.equal(range, TESTED_TFJS_VERSION, `${where}: ${name} is '${range}', expected exactly ${TESTED_TFJS_VERSION}`);
  }
  const lock = json('package-lock.json').packages;
  for (const [path, entry] of Object.entries(lock) as [string, { version?: string }][]) {
    if (/^node_modules\/@tensorflow\/[^/]+$/.test(path)) assert.equal(entry.version, TESTED_TFJS_VERSION, `package-lock.json: ${path}`);
  }
});
