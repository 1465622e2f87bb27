// The engine in Electron's utilityProcess: a Node child the main process supervises, so tensor
// work never runs on the Electron main thread or in the renderer.
import { utilityProcess } from 'electron';
import type { EngineHandle, EngineLauncher } from '../main/services/engine-launcher';
import type { FromEngine } from '../main/api/engine-protocol';

export function utilityLauncher(entry: string): EngineLauncher {
  return (): EngineHandle => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'LiNO engine', stdio: 'inherit' });
    return {
      get pid() {
        return child.pid;
      },
      send: (msg) => child.postMessage(msg),
      onMessage: (l) => child.on('message', (m) => l(m as FromEngine)),
      onExit: (l) => child.once('exit', (code) => l(code, null)),
      kill: () => void child.kill(),
    };
  };
}
