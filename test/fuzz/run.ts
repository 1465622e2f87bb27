// `npm run fuzz [count] [format...]`: 5000 mutations per format by default (the data formats, the
// weight formats, a sweep's state.json and collected run folders). Prints per format the
// cases, what read, clean refusals (an error naming the file), crashes (anything else) and hangs.
import { FORMATS } from './cases';
import { MODEL_FORMATS } from './model-file-cases';
import { SWEEP_FORMATS } from './sweep-cases';
import { fuzzFormat, stopFuzzWorker } from './harness';

const args = process.argv.slice(2);
const count = args[0] && /^\d+$/.test(args[0]) ? Number(args.shift()) : 5000;
const formats = args.length ? args : [...Object.keys(FORMATS), ...Object.keys(MODEL_FORMATS), ...Object.keys(SWEEP_FORMATS)];
let failed = 0;
for (const f of formats) {
  const r = await fuzzFormat(f, count, 7);
  const hangs = r.failures.filter((x) => x.includes('hang guard')).length;
  console.log(`${f.padEnd(11)} ${r.cases} cases in ${r.seconds.toFixed(1)} s: ${r.ok} read, ${r.dataErrors} clean refusals, ${r.failures.length - hangs} crashes, ${hangs} hangs`);
  for (const x of r.failures.slice(0, 20)) console.log(`  FAIL ${x}`);
  failed += r.failures.length;
}
await stopFuzzWorker();
process.exit(failed ? 1 : 0);
