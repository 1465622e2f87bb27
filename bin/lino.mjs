#!/usr/bin/env node
// The `lino` command: runs the engine's CLI from its TypeScript sources through tsx. tsx is a
// devDependency: the CLI is a tool of a checkout (`npm ci`), not shipped inside the desktop app.
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  console.error("lino: the CLI runs from the TypeScript sources through tsx, which is not installed: run 'npm ci' (with dev dependencies) in the checkout");
  process.exit(1);
}
register();
const { main, quietOnClosedPipe } = await import('../main/cli/lino.ts');
quietOnClosedPipe();
process.exitCode = await main(process.argv.slice(2));
