// A job kind is declared once: JOB_KINDS (main/api/jobs.ts) holds its lane, parameters and whether it
// runs in the job worker; the lane table and the worker kinds are derived from it, and the engine's
// one table of bodies (main/engine/job-handlers.ts) is keyed by it. No other source file declares
// kinds: no table keyed by several kinds, no union of their names, no registration of a kind by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { isWorkerJobKind, JOB_KINDS, JobKind, LANE_OF_KIND, workerRunsTensors, type JobKindDeclaration } from '../../../main/api/jobs';
import { LANE_OF_KIND as ENGINE_LANES } from '../../../main/engine/job-lanes';
import { JOB_HANDLERS } from '../../../main/engine/job-handlers';

// What does not compile (the @ts-expect-error lines fail the type check once they stop being errors):
// a declaration without its lane, or with a lane that does not exist;
// @ts-expect-error no lane
export const noLane: JobKindDeclaration = { params: z.object({}) };
// @ts-expect-error no such lane
export const unknownLane: JobKindDeclaration = { lane: 'gpu', through: 'runs.evaluate' };
// and a body table without one kind's entry.
const { cost: _cost, ...withoutCost } = JOB_HANDLERS;
// @ts-expect-error the cost kind has no body
export const missingBody: typeof JOB_HANDLERS = withoutCost;

const ROOT = new URL('../../../', import.meta.url).pathname;
const KINDS = Object.keys(JOB_KINDS);

/** The declaration, the body table and (one line per kind, by type) the parameters a renaming call hands its job. */
const ALLOWED = ['main/api/jobs.ts', 'main/engine/job-handlers.ts', 'main/engine/job-params.ts'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|tsx|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}
const escape = (k: string) => k.replace(/[-]/g, '\\-');

test('the derived tables equal the one declaration', () => {
  assert.deepEqual(JobKind.options, KINDS);
  assert.deepEqual(LANE_OF_KIND, Object.fromEntries(Object.entries(JOB_KINDS).map(([k, d]) => [k, d.lane])));
  assert.equal(ENGINE_LANES, LANE_OF_KIND, 'the engine reads the same table');
  assert.deepEqual(Object.keys(JOB_HANDLERS), KINDS, 'one body per kind, in the declaration\'s order');
  const workers = KINDS.filter((k) => 'worker' in JOB_KINDS[k as JobKind]);
  assert.deepEqual(KINDS.filter(isWorkerJobKind), workers);
  // the ones that run tensors select a backend in their worker; a data job's does not
  assert.deepEqual(workers.filter((k) => workerRunsTensors(k as never)), ['evaluate', 'lightmaps-correlation', 'cost', 'torch-speed']);
  assert.deepEqual(workers.filter((k) => !workerRunsTensors(k as never)), ['generate', 'import']);
  assert.equal(isWorkerJobKind('no-such-kind'), false);
  assert.equal(isWorkerJobKind('toString'), false, 'an inherited name is no kind');
});

/** What in `code` declares job kinds: a table keyed by three or more, a union of their names, a registration by name. */
function declarations(code: string): string[] {
  const text = code.replace(/^\s*(\/\/|\*).*$/gm, '');
  const found: string[] = [];
  // keys of an object or type literal (`train: …`, `'cluster-export': …`); two may be chance (a
  // lane shares its name with the export and playground-solve kinds), three are a table
  const keys = KINDS.filter((k) => new RegExp(`^\\s*'?${escape(k)}'?\\??\\s*:`, 'm').test(text));
  if (keys.length >= 3) found.push(`a table keyed by ${keys.join(', ')}`);
  const names = KINDS.map(escape).join('|');
  const union = text.match(new RegExp(`'(${names})'(\\s*\\|\\s*'(${names})'){2,}`));
  if (union) found.push(`a union of kinds ${union[0]}`);
  const registered = text.match(/\.register\(\s*'[^']+'/);
  if (registered) found.push(`a registration by name (${registered[0]}); the engine registers JOB_HANDLERS`);
  return found;
}

test('no other source file declares job kinds (a table keyed by them, a union of their names, a registration by name)', () => {
  const sources = ['main', 'renderer/src', 'scripts', 'electron'].flatMap((d) => files(join(ROOT, d)));
  const found = sources
    .map((f) => relative(ROOT, f))
    .filter((rel) => !ALLOWED.includes(rel))
    .flatMap((rel) => declarations(readFileSync(join(ROOT, rel), 'utf8')).map((d) => `${rel}: ${d}`));
  assert.deepEqual(found, []);
  // the allowed files are the ones the scan would flag
  for (const rel of ALLOWED) assert.ok(declarations(readFileSync(join(ROOT, rel), 'utf8')).length > 0, `${rel} holds a table of kinds`);
});

test('the scan catches the shapes a second declaration had (a lane table, a worker union, a registration)', () => {
  assert.deepEqual(declarations(`export const LANE_OF_KIND = {\n  train: 'training',\n  evaluate: 'evaluation',\n  cost: 'analysis',\n};`), ['a table keyed by train, evaluate, cost']);
  assert.equal(declarations(`export type WorkerJobKind = 'evaluate' | 'lightmaps-correlation' | 'generate';`).length, 1);
  assert.equal(declarations(`    jobs.register('train', { label, run });`).length, 1);
  // a lane table names two of them by chance: not a declaration
  assert.deepEqual(declarations(`const LANE_LABEL = {\n  training: 'Training',\n  'playground-solve': 'Playground solver',\n  export: 'Export',\n};`), []);
});
