// The stylesheet's rules a view relies on and that no plot or store test sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const css = readFileSync(new URL('../../../renderer/src/styles.css', import.meta.url), 'utf8');

test('a disabled button looks disabled: faded, with a not-allowed cursor (the closing walk\'s refused Generate looked clickable)', () => {
  const rule = /button:disabled\s*\{([^}]*)\}/.exec(css);
  assert.ok(rule, 'a button:disabled rule');
  const opacity = /opacity:\s*([\d.]+)/.exec(rule[1]!);
  assert.ok(opacity && Number(opacity[1]) < 0.8, `faded: ${rule[1]}`);
  assert.match(rule[1]!, /cursor:\s*not-allowed/);
});
