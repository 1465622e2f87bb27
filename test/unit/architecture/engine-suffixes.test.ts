// main/engine names files by what they export: *-call.ts answers calls at once, *-job.ts / *-jobs.ts
// hold job bodies (a `run…` function taking a JobContext). A job body in a -call file, or a
// -jobs file without one, mixes the two (the dataset and Playground modules once did).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = new URL('../../../main/engine/', import.meta.url).pathname;

test('engine -call files export no job body; -job/-jobs files hold one', () => {
  const bad: string[] = [];
  for (const f of readdirSync(DIR).filter((n) => n.endsWith('.ts'))) {
    const src = readFileSync(join(DIR, f), 'utf8');
    const jobBody = /export (async )?function run[A-Z]\w*\([^)]*ctx: JobContext/.test(src);
    if (/-call\.ts$/.test(f) && jobBody) bad.push(`${f}: exports a job body (move it to a -job.ts file)`);
    if (/-jobs?\.ts$/.test(f) && !jobBody && !/class \w+Jobs\b/.test(src)) bad.push(`${f}: no job body (a -call.ts file answers calls)`);
  }
  assert.deepEqual(bad, []);
});
