#!/usr/bin/env node
// The `lino` command: runs the engine's CLI from its TypeScript sources through tsx.
import { register } from 'tsx/esm/api';
register();
const { main, quietOnClosedPipe } = await import('../main/cli/lino.ts');
quietOnClosedPipe();
process.exitCode = await main(process.argv.slice(2));
