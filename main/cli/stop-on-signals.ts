// Ctrl-C / SIGTERM for the long-running commands (train, train --seeds, sweep).
/**
 * Ctrl-C / SIGTERM handling for training: the first signal stops at the next step (status,
 * checkpoint and lock in order); a second quits at once (the lock is still released on exit).
 * exitCode() is the shell's code for a process ended by that signal (128 + number), or null.
 */
export function stopOnSignals(out: NodeJS.WriteStream) {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  const onSig = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(sig === 'SIGTERM' ? 143 : 130);
    stoppedBy = sig;
    out.write(`\n${sig}: stopping after this step (${sig === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSig);
  process.on('SIGTERM', onSig);
  return {
    signal: controller.signal,
    exitCode: (): number | null => (stoppedBy ? (stoppedBy === 'SIGTERM' ? 143 : 130) : null),
    dispose() {
      process.off('SIGINT', onSig);
      process.off('SIGTERM', onSig);
    },
  };
}
