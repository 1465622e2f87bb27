// Every folder of main/ has a layer: eslint.config.js's LAYERS names each one (the lint rule that
// keeps imports downward covers exactly these), and docs/CONVENTIONS.md draws the same list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/host';
// @ts-expect-error eslint.config.js is plain JavaScript without declarations
import { LAYERS } from '../../../eslint.config.js';

const layers = LAYERS as string[];
const folders = readdirSync(join(ROOT, 'main'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

test('each folder of main/ has a place in the layer list, and each layer is a folder', () => {
  assert.deepEqual(folders.filter((f) => !layers.includes(f)), [], 'folders of main/ without a layer: add them to LAYERS in eslint.config.js');
  assert.deepEqual(layers.filter((l) => !folders.includes(l)), [], 'layers without a folder in main/');
  assert.equal(new Set(layers).size, layers.length, 'a folder listed twice');
});

test("docs/CONVENTIONS.md opens with the same layer list, in the same order, each folder existing", () => {
  const doc = readFileSync(join(ROOT, 'docs', 'CONVENTIONS.md'), 'utf8');
  const diagram = /```text\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(diagram, 'docs/CONVENTIONS.md: no ```text layer diagram');
  assert.ok(doc.indexOf(diagram) < doc.indexOf('## Extension recipes'), 'the layer diagram opens the file, before the recipes');
  for (const recipe of ['A model kind', 'A data format', 'A view', 'A fused kernel']) assert.ok(doc.includes(`\n${recipe} `), `docs/CONVENTIONS.md: no recipe '${recipe}'`);
  const named = [...diagram.matchAll(/main\/([a-z-]+)\//g)].map((m) => m[1]);
  assert.deepEqual(named, layers, 'the diagram lists main/ folders top to bottom as LAYERS does');
  for (const f of named) assert.ok(folders.includes(f), `docs/CONVENTIONS.md names main/${f}/, which does not exist`);
});
