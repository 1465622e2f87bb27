// `lino <command> [subcommand] [--flags]`: one dispatcher, one module per command under ./commands.
// Names, summaries and usage come from the light table in commands/index.ts, so help and version
// never load a command (nor TensorFlow.js). Exit status: 0 success, 1 a failure while running,
// 2 a usage error, 130 interrupted (Ctrl-C), 141 stdout closed early (`lino ... | head`).
import { printable } from '../util/printable'; // an error may quote a file's own text
import { fileURLToPath } from 'node:url';
import { COMMANDS, GROUPS, type CommandEntry } from './commands/index';
import { UsageError } from './args';
import { errorMessage } from '../util/error-message';

export type { CliCommand } from './command';

const out = (s: string) => process.stdout.write(`${s}\n`);

function overview(): string {
  const lines = ['usage: lino <command> [options]', '       lino help <command>   lino <command> --help   lino --version', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(18)} ${c.summary}`);
  lines.push('', 'exit status: 0 success, 1 failure while running, 2 usage error, 130 interrupted (Ctrl-C)');
  return lines.join('\n');
}

function groupHelp(group: string): string {
  const subs = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
  return [`usage: lino ${group} <subcommand> [options]   (${GROUPS[group]})`, '', 'subcommands:',
    ...subs.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`), '', `lino ${group} <subcommand> --help shows a subcommand's options`].join('\n');
}

/** The command named by the first one or two words, and the arguments after them. */
function resolve(words: string[]): { entry?: CommandEntry; group?: string; args: string[] } {
  const [cmd, sub, ...rest] = words;
  if (cmd && cmd in GROUPS) {
    const entry = COMMANDS.find((c) => c.name === `${cmd} ${sub}`);
    return entry ? { entry, args: rest } : { group: cmd, args: sub === undefined ? [] : [sub, ...rest] };
  }
  return { entry: COMMANDS.find((c) => c.name === cmd), args: words.slice(1) };
}

async function version(): Promise<number> {
  const mod = await COMMANDS.find((c) => c.name === 'version')!.load();
  return mod.default.run([]);
}

const isHelp = (a: string) => a === '--help' || a === '-h';

export async function main(argv: string[]): Promise<number> {
  const [cmd] = argv;
  if (cmd === '--version' || cmd === '-V') return version();
  if (!cmd || isHelp(cmd) || cmd === 'help') {
    const topic = cmd === 'help' ? argv.slice(1) : [];
    if (topic.length === 0) { out(overview()); return 0; }
    const r = resolve(topic);
    if (r.entry && r.args.length === 0) { out(r.entry.usage); return 0; }
    if (r.group && r.args.length === 0) { out(groupHelp(r.group)); return 0; }
    process.stderr.write(`lino help: no command '${topic.join(' ')}' (try 'lino help')\n`);
    return 2;
  }
  const r = resolve(argv);
  if (r.group) {
    if (r.args.length === 0) { process.stderr.write(`${groupHelp(r.group)}\n`); return 2; }
    if (isHelp(r.args[0]!)) { out(groupHelp(r.group)); return 0; }
    process.stderr.write(`lino: unknown command '${r.group} ${r.args[0]}' (try 'lino help ${r.group}')\n`);
    return 2;
  }
  if (!r.entry) {
    process.stderr.write(`lino: unknown command '${cmd}' (try 'lino help')\n`);
    return 2;
  }
  if (r.args.some(isHelp)) { out(r.entry.usage); return 0; }
  try {
    const command = (await r.entry.load()).default;
    return await command.run(r.args);
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stderr.write(`lino ${r.entry.name}: ${printable(errorMessage(err))}${usage ? ` (try 'lino ${r.entry.name} --help')` : ''}\n`);
    return usage ? 2 : 1;
  }
}

/**
 * A reader that closes early (`lino ... | head`) makes the next write fail with EPIPE: stop quietly
 * with the status a process killed by SIGPIPE has, instead of printing a stack trace.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(141);
      throw err;
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  quietOnClosedPipe();
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
