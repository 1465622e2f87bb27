// Worker entry when running from TypeScript sources: Node does not apply the parent's tsx loader to a
// worker's first module, so register tsx here and then import the TypeScript worker body.
import { register } from 'tsx/esm/api';

register();
await import('./playground-worker.ts');
