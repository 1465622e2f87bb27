// A finished reproduction is read back from the workspace with its main table rebuilt
// from its runs on disk (a deleted run drops out, with a note), and running the same preset and
// size again is refused unless asked, then made a new group with names and a folder of its own.
// Real preset (burgers, tiny: four arms, one epoch), real trainer and run store (cpu).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { readReproductions } from '../../../main/reproduce/readback';
import { refuseRepeat, runReproduce } from '../../../main/engine/reproduce-job';
import { RunStore } from '../../../main/runs/run-store';
import type { ReproduceResult } from '../../../main/api/reproduce';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-readback-');
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());
const ctx = { signal: new AbortController().signal, progress() {} };

test('a reproduction reads back with the same tables, rebuilt from its runs; a second one asks first and gets its own names', { timeout: 240_000 }, async () => {
  const first = (await runReproduce({ workspace: ws.path, name: 'burgers', size: 'tiny' }, ctx)) as ReproduceResult;
  assert.match(first.outDir, /exports[/\\]reproduce-burgers-tiny$/);
  const back = readReproductions(ws.path);
  assert.deepEqual(back.problems, []);
  assert.equal(back.results.length, 1);
  const r = back.results[0]!;
  assert.equal(r.outDir, first.outDir);
  assert.deepEqual(r.tables[0]!.measured, first.tables[0]!.measured, 'the measured rows, as the job showed them');
  assert.deepEqual(r.tables[0]!.reported, first.tables[0]!.reported);
  assert.match(r.tables[0]!.notes.at(-1)!, /rebuilt from its runs in the workspace/);
  assert.deepEqual(r.runs, first.runs);

  // the same preset and size again: refused unless asked, naming the earlier result and the new group
  assert.throws(() => refuseRepeat({ workspace: ws.path, name: 'burgers', size: 'tiny' }), /invalid parameter 'again': burgers \(tiny\) was reproduced before .*reproduce-burgers-tiny\); pass again: true to run it as a new group 'burgers-tiny-run2'/);
  refuseRepeat({ workspace: ws.path, name: 'burgers', size: 'quick' });
  refuseRepeat({ workspace: ws.path, name: 'burgers', size: 'tiny', again: true });
  const second = (await runReproduce({ workspace: ws.path, name: 'burgers', size: 'tiny', again: true }, ctx)) as ReproduceResult;
  assert.match(second.outDir, /reproduce-burgers-tiny-run2$/);
  const runs = new RunStore(join(ws.path, 'runs')).list();
  const names = runs.map((x) => x.name);
  assert.equal(new Set(names).size, names.length, `no two runs share a name: ${names.join(', ')}`);
  assert.ok(names.some((n) => n.startsWith('burgers-tiny-run2/')));
  assert.equal(new Set(runs.map((x) => x.group)).size, 8, 'four arms, each its own group, twice');

  // a deleted run drops out of the rebuilt table, with a note; an unreadable summary is named, not thrown
  new RunStore(join(ws.path, 'runs')).delete(first.runs[0]!.id);
  mkdirSync(join(ws.path, 'exports', 'reproduce-broken'));
  writeFileSync(join(ws.path, 'exports', 'reproduce-broken', 'x.json'), '{ not json');
  const again = readReproductions(ws.path);
  assert.equal(again.results.length, 2);
  assert.equal(again.results[1]!.repeat, 2);
  const t = again.results[0]!.tables[0]!;
  assert.equal(t.measured.length, first.tables[0]!.measured.length - 1);
  assert.match(t.notes.at(-1)!, /rebuilt from the 3 runs still in the workspace \(1 deleted since\)/);
  assert.equal(again.problems.length, 1);
  assert.match(again.problems[0]!, /reproduce-broken: the reproduction's summary could not be read/);
});
