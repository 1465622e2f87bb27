// Training, evaluation, rollout, the gates diagnostics and checkpoints never read tensors
// synchronously (webgpu in Node cannot): eslint's no-restricted-syntax rule over those folders
// enforces it; this test proves the rule bites and that the folders are clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const FOLDERS = ['main/train', 'main/engine', 'main/model', 'main/ops', 'main/runs'];

test('the lint rule refuses dataSync/arraySync/bufferSync in the engine folders', async () => {
  const eslint = new ESLint();
  for (const call of ['t.dataSync()', 't.arraySync()', 't.bufferSync()']) {
    const [r] = await eslint.lintText(`declare const t: { ${call.slice(2, -2)}(): number };\nexport const v = ${call};\n`, { filePath: 'main/train/sync-read-probe.ts' });
    assert.ok(r!.messages.some((m) => m.ruleId === 'no-restricted-syntax'), `${call} is refused`);
  }
  const [outside] = await eslint.lintText('declare const t: { dataSync(): number };\nexport const v = t.dataSync();\n', { filePath: 'bench/sync-read-probe.ts' });
  assert.ok(!outside!.messages.some((m) => m.ruleId === 'no-restricted-syntax'), 'benches may read synchronously');
});

test('no synchronous tensor read in main/train, engine, model, ops or runs', async () => {
  const results = await new ESLint().lintFiles(FOLDERS.map((f) => `${f}/**/*.ts`));
  const hits = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`));
  assert.deepEqual(hits, []);
});
