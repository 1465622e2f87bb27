// Entry point of the engine process. Launched by child_process.fork (browser mode, CLI, tests)
// or by Electron's utilityProcess (the desktop app); talks to its parent over whichever it has.
import type { FromEngine, ParentChannel, ToEngine } from '../api/engine-protocol';
import { startEngine } from './engine';

/** What Electron's utilityProcess adds to `process` (main/ does not import electron's types). */
interface UtilityProcessGlobals {
  parentPort?: { postMessage(m: unknown): void; on(e: 'message', l: (ev: { data: unknown }) => void): void };
}

function parentChannel(): ParentChannel {
  // Electron's utilityProcess exposes process.parentPort; fork gives process.send.
  const port = (process as NodeJS.Process & UtilityProcessGlobals).parentPort;
  if (port) {
    return {
      send: (msg: FromEngine) => port.postMessage(msg),
      onMessage: (l) => port.on('message', (ev) => l(ev.data as ToEngine)),
    };
  }
  if (typeof process.send === 'function') {
    return {
      send: (msg: FromEngine) => process.send!(msg),
      onMessage: (l) => process.on('message', (m) => l(m as ToEngine)),
    };
  }
  throw new Error('engine-process must be started by a host (fork or utilityProcess)');
}

// The engine exits with its host: a lost IPC channel means nobody is listening any more.
process.on('disconnect', () => process.exit(0));
startEngine(parentChannel());
