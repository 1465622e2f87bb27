// What each `lino` command module exports by default (commands/<cmd>.ts), apart from the dispatcher
// (lino.ts) so a command never imports the entry that loads it.
export interface CliCommand {
  run(argv: string[]): Promise<number>;
}
