// How a host starts the engine process. Browser mode and the CLI fork it with Node;
// the Electron host supplies a utilityProcess-based launcher of its own (electron/engine-launcher.ts).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromEngine, ToEngine } from '../api/engine-protocol';

export interface EngineHandle {
  readonly pid: number | undefined;
  send(msg: ToEngine): void;
  onMessage(listener: (msg: FromEngine) => void): void;
  /** Called once when the process is gone, with its exit code or signal. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  kill(): void;
}

export type EngineLauncher = () => EngineHandle;

export const ENGINE_ENTRY = fileURLToPath(new URL('../engine/engine-process.ts', import.meta.url));

/** Forks the engine from its TypeScript source through tsx. */
export const forkLauncher: EngineLauncher = () => forkEngine(ENGINE_ENTRY, ['--import', 'tsx']);

/**
 * Forks a built engine (scripts/build.mjs engine: dist/engine/engine-process.js, with its worker
 * entries beside it) with plain Node: no TypeScript loader in the engine or in any of its workers.
 */
export function bundleLauncher(entry: string): EngineLauncher {
  return () => forkEngine(entry, []);
}

function forkEngine(entry: string, execArgv: string[]): EngineHandle {
  const child = fork(entry, [], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env },
  });
  // A message sent while the engine dies (SIGKILL) fails with EPIPE; without a listener that error
  // would take the host down. The engine's death is reported by onExit, so both are left quiet here.
  child.on('error', () => {});
  return {
    get pid() {
      return child.pid;
    },
    send: (msg) => {
      if (child.connected) child.send(msg, () => {});
    },
    onMessage: (l) => child.on('message', (m) => l(m as FromEngine)),
    onExit: (l) => child.once('exit', (code, signal) => l(code, signal)),
    kill: () => child.kill('SIGKILL'),
  };
}
