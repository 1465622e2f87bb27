// Minimal flag parsing shared by every command (node:util parseArgs with strict errors).
// A UsageError is a mistake in the command line (exit status 2); any other error is a failure
// while running (exit status 1).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../util/error-message';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    // node's messages already name the flag ("Unknown option '--x'", "Option '--y <value>' argument missing")
    throw new UsageError(errorMessage(err));
  }
}

export function requireFlag(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(`missing required flag --${name}`);
  return v;
}
