#!/usr/bin/env node
// The `lino` command: runs the engine's CLI from its TypeScript sources through tsx. tsx is a
// devDependency: the CLI is a tool of a checkout (`npm ci`), not shipped inside the desktop app.
// Under the test runner (LINO_CLI_BUNDLE=1, set by scripts/test.mjs after it built dist/cli from the
// same sources) it runs that bundle instead: no TypeScript to compile in each of the suite's processes.
const bundle = new URL('../dist/cli/lino.js', import.meta.url);
let cli;
if (process.env.LINO_CLI_BUNDLE === '1' && (await import('node:fs')).existsSync(bundle)) {
  cli = await import(bundle.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    console.error("lino: the CLI runs from the TypeScript sources through tsx, which is not installed: run 'npm ci' (with dev dependencies) in the checkout");
    process.exit(1);
  }
  register();
  cli = await import('../main/cli/lino.ts');
}
cli.quietOnClosedPipe();
process.exitCode = await cli.main(process.argv.slice(2));
