// Worker bootstrap: TypeScript sources through tsx, then the fuzz loop.
import { register } from 'tsx/esm/api';
register();
await import('./worker.ts');
