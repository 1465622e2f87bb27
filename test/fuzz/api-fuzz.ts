// `npm run fuzz:api [cases] [--seed N] [--seconds S]`: starts browser mode as its own process on
// 127.0.0.1 (temporary home, config and workspace) and fuzzes it; exits 1 on any failure.
// Defaults: 3000 cases (1000 per category), at most 300 s.
import { parseArgs } from 'node:util';
import { startHostProcess } from '../helpers/host-process';
import { fuzzApi, formatReport } from './api-fuzz-harness';

const { values, positionals } = parseArgs({ options: { seed: { type: 'string', default: '1' }, seconds: { type: 'string', default: '300' } }, allowPositionals: true });
const cases = positionals[0] ? Number(positionals[0]) : 3000;
if (!Number.isInteger(cases) || cases < 1) {
  console.error(`fuzz:api: cases must be a positive integer, got '${positionals[0]}'`);
  process.exit(2);
}
const host = await startHostProcess();
let failed = true;
try {
  console.log(`fuzzing the browser host at 127.0.0.1:${host.port} (pid ${host.child.pid}), ${cases} cases, seed ${values.seed}`);
  const r = await fuzzApi(host, { cases, seed: Number(values.seed), seconds: Number(values.seconds) });
  console.log(formatReport(r));
  failed = r.failures.length > 0;
} finally {
  const code = await host.stop();
  console.log(`host exited with code ${code} after SIGTERM`);
}
process.exit(failed ? 1 : 0);
