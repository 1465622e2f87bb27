// Which engine the tests fork. scripts/test.mjs builds the engine bundle (the one the desktop app
// ships) before the run and names it in LINO_ENGINE_BUNDLE: the engine and its workers then start
// with plain Node instead of compiling TypeScript through tsx in every process and worker thread.
// A test file run on its own (no LINO_ENGINE_BUNDLE) forks the engine from its sources.
import { bundleLauncher, forkLauncher, type EngineLauncher } from '../../main/services/engine-launcher';

export function testLauncher(): EngineLauncher {
  const bundle = process.env.LINO_ENGINE_BUNDLE;
  return bundle ? bundleLauncher(bundle) : forkLauncher;
}
