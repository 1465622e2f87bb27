// Temp files of a killed dataset generation or export (hidden, up to 110 MB) are removed when the
// workspace is next opened, and logged; a live writer's temp files are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { forkLauncher } from '../../../main/services/engine-launcher';
import { tempDir, isolateConfig } from '../../helpers/env';

test('opening a workspace removes dead writers’ temp files in datasets/ and exports/ and logs each', async (t) => {
  const restore = isolateConfig();
  const ws = tempDir('lino-leftovers-');
  t.after(() => { ws.cleanup(); restore(); });
  // A pid that is certainly gone: a child that has already exited.
  const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
  const ds = join(ws.path, 'datasets', 'darcy-0123456789ab');
  mkdirSync(ds, { recursive: true });
  const stale = [
    join(ds, `.train_x.npy.${dead}.m1abc2def.tmp`),
    join(ws.path, 'datasets', `.manifest.json.${dead}.zz9.tmp`),
  ];
  for (const p of stale) writeFileSync(p, Buffer.alloc(1 << 20));
  const partial = join(ws.path, 'exports', `.darcy-raw-npy.${dead}.partial`);
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'x.npy'), Buffer.alloc(1000));
  const live = join(ds, `.val_x.npy.${process.pid}.k3.tmp`); // this process: a writer still at work
  writeFileSync(live, 'x');
  const kept = [join(ds, 'train_x.npy'), join(ds, '.notes'), join(ws.path, 'datasets', '.tmp-but-not-ours')];
  for (const p of kept) writeFileSync(p, 'keep');

  const warned: string[] = [];
  const warn = console.warn;
  console.warn = (m: unknown) => void warned.push(String(m));
  let service: WorkbenchService;
  try {
    service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: ws.path });
  } finally {
    console.warn = warn;
  }
  for (const p of [...stale, partial]) assert.equal(existsSync(p), false, `${p} removed`);
  for (const p of [live, ...kept]) assert.equal(existsSync(p), true, `${p} kept`);
  assert.equal(warned.length, 3);
  assert.ok(warned.some((w) => w.includes(stale[0]) && /1\.0 MB/.test(w)), warned.join('\n'));
  assert.ok(warned.some((w) => w.includes(partial)));
  await service.dispose();
});
