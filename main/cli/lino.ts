// `lino <command> [subcommand] [--flags]`: one dispatcher, one module per command under ./commands.
// `lino data generate` resolves to commands/data-generate.ts, `lino predict` to commands/predict.ts.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export interface CliCommand {
  /** One-line summary for `lino help`. */
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

const here = dirname(fileURLToPath(import.meta.url));
const commandsDir = join(here, 'commands');

function listCommands(): string[] {
  return readdirSync(commandsDir).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort();
}

async function load(name: string): Promise<CliCommand> {
  const mod = await import(join(commandsDir, `${name}.ts`));
  return mod.default as CliCommand;
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, sub, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    console.log('usage: lino <command> [options]\n\ncommands:');
    for (const name of listCommands()) {
      const c = await load(name);
      console.log(`  ${name.replace('-', ' ').padEnd(18)} ${c.summary}`);
    }
    return 0;
  }
  let name = cmd;
  let args = [sub, ...rest].filter((a) => a !== undefined) as string[];
  if (sub && existsSync(join(commandsDir, `${cmd}-${sub}.ts`))) {
    name = `${cmd}-${sub}`;
    args = rest;
  }
  if (!existsSync(join(commandsDir, `${name}.ts`))) {
    console.error(`lino: unknown command '${[cmd, sub].filter(Boolean).join(' ')}' (try 'lino help')`);
    return 2;
  }
  const command = await load(name);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(args);
  } catch (err) {
    console.error(`lino ${name.replace('-', ' ')}: ${(err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
