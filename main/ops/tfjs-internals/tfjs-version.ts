// The one version of TensorFlow.js the code in this folder was tested with. Everything here reaches
// into tfjs internals (the engine's clone and active tape, kernel registrations, a bundle of
// tfjs-core's own gradient files), which a minor release may change without notice: a version it
// was not tested with is refused at load, before any of it is installed, rather than training
// wrongly. package.json pins @tensorflow/* to exactly this version; docs/CONVENTIONS.md says how to
// upgrade ("Upgrading TensorFlow.js").
import { version_core } from '@tensorflow/tfjs-core';

export const TESTED_TFJS_VERSION = '4.22.0';

/** Throws, naming the installed and the tested version, unless `installed` is the tested one. */
export function checkTfjsVersion(installed: string, tested = TESTED_TFJS_VERSION): void {
  if (installed === tested) return;
  throw new Error(
    `@tensorflow/tfjs-core ${installed} is installed, but main/ops/tfjs-internals/ was tested with ${tested} only: ` +
      `it patches tfjs internals that change between releases. Install ${tested} (npm ci; package.json pins it), ` +
      'or upgrade as docs/CONVENTIONS.md "Upgrading TensorFlow.js" says.',
  );
}

checkTfjsVersion(version_core);
