// `npm run bench [filter]`: runs every bench/*.bench.ts in turn. Each module's default export
// prints its own figures, always as ratios against a reference measured in the same run.
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const mod = await import(join(here, f));
  await mod.default();
}
