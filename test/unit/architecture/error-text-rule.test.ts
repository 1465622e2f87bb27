// CONVENTIONS: an error's text for the user comes from one helper (errorMessage in main/, errorText
// in the renderer). The lint rule that holds it fires in every folder of the product, on every
// layer's own no-restricted-syntax list (a later config entry replaces an earlier one's list), and
// not in the two helpers themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SNIPPET = 'export const f = (e: unknown) => (e instanceof Error ? e.message : String(e));\n';

test("a hand-written `e instanceof Error ? e.message : String(e)` is a lint error in main/, renderer/ and electron/, not in the helpers", async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const ruleHits = async (path: string) => (await eslint.lintText(SNIPPET, { filePath: `${ROOT}${path}` }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && /errorMessage/.test(m.message)).length;
  for (const p of ['main/util/x.ts', 'main/train/x.ts', 'main/engine/x.ts', 'main/data/x.ts', 'renderer/src/views/x.tsx', 'renderer/src/stores/x.ts', 'electron/x.ts']) assert.equal(await ruleHits(p), 1, p);
  for (const p of ['main/util/error-message.ts', 'renderer/src/api/error-text.ts']) assert.equal(await ruleHits(p), 0, p);
});
