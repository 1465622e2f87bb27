// Minimal flag parsing shared by every command (node:util parseArgs with strict errors).
import { parseArgs, type ParseArgsConfig } from 'node:util';

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
}

export function requireFlag(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.length === 0) throw new Error(`missing required flag --${name}`);
  return v;
}
