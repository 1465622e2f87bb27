// A data file that takes too long to list is an error naming it (datasets.inspect) or a failed
// import job, never a stuck engine: the listing runs in a worker with a deadline and engine.ping
// keeps answering meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { JobSummary } from '../../main/api/contract';
import { h5lib, openH5 } from '../../main/data/formats/h5';
import { engineService } from '../helpers/engine-service';
import { tempDir } from '../helpers/env';

process.env.LINO_INSPECT_DEADLINE_MS = '1000'; // read by the engine process, forked on the first call
const home = tempDir('lino-deadline-home-');
const { service, settled } = engineService({ homeRoot: home.path });

/** 63 nested groups with 600 datasets at the bottom: seconds to list (well past the 1 s deadline), within the walk's bounds. */
async function slowFile(): Promise<string> {
  const h5 = await h5lib();
  const M = (await h5.ready) as unknown as { create_group(id: bigint, path: string, track: boolean): number };
  const path = join(home.path, 'slow.h5');
  const f = openH5(h5, path, 'w');
  let p = '';
  for (let i = 0; i < 63; i++) M.create_group(f.file_id, (p += '/g'), false);
  const bottom = new h5.Group(f.file_id, p);
  for (let i = 0; i < 600; i++) bottom.create_dataset({ name: `d${i}`, data: new Float32Array([i]) });
  f.close();
  return path;
}

test('a slow listing fails after the deadline with the file named, while engine.ping answers', { timeout: 120_000 }, async () => {
  await slowFile();
  await service.call('engine.ping', { t: 0 }); // engine up before timing anything
  const ref = service.listFiles('home', '').entries.find((e) => e.name === 'slow.h5')!.ref!;
  let done = false;
  const outcome = service.call('datasets.inspect', { file: ref }).then(() => null, (e: Error) => e).finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const t0 = Date.now();
    await service.call('engine.ping', { t: t0 });
    latencies.push(Date.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(String((await outcome)?.message), /slow\.h5: listing the file took longer than 1 s and was stopped/);
  assert.ok(latencies.length >= 3, `${latencies.length} pings during the listing`);
  assert.ok(Math.max(...latencies) < 1000, `ping latencies ${latencies.join(', ')} ms`);

  const job = (await service.call('datasets.import', { file: ref, benchmark: 'custom', input: ['a'], target: 'b' })) as JobSummary;
  const end = await settled(job.id, 60_000);
  assert.equal(end.state, 'failed');
  assert.match(end.error ?? '', /slow\.h5: listing the file took longer than 1 s/);
  assert.equal(((await service.call('engine.ping', { t: 5 })) as { t: number }).t, 5);
});
