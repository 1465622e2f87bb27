// Opening a data file from the app: the user picks a file (a reference issued by the host), sees its
// variables before anything loads, maps them to input/target and imports it into the dataset store.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkbenchService } from '../../main/services/workbench-service';
import { forkLauncher } from '../../main/services/engine-launcher';
import type { DatasetSample, JobSummary, WorkbenchEvent } from '../../main/api/contract';
import { tempDir, isolateConfig } from '../helpers/env';
import { ROOT } from '../helpers/host';
import { waitFor } from '../helpers/wait';

const restore = isolateConfig();
const ws = tempDir('lino-import-ws-');
const home = tempDir('lino-import-home-');
copyFileSync(`${ROOT}test/fixtures/data/darcy_v5.mat`, join(home.path, 'darcy.mat'));
writeFileSync(join(home.path, 'notes.txt'), 'not a data file\n');
for (const f of ['1d_time.h5', 'groups_2d.h5', 'ns_matlab_order.h5']) copyFileSync(`${ROOT}test/fixtures/data/pdebench/${f}`, join(home.path, f));
const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: ws.path, homeRoot: home.path });
const events: WorkbenchEvent[] = [];
service.onEvent((e) => events.push(e));
after(async () => {
  await service.dispose();
  ws.cleanup();
  home.cleanup();
  restore();
});

const ref = (name: string) => service.listFiles('home', '').entries.find((e) => e.name === name)!.ref!;
const jobEnd = (id: string) =>
  waitFor(() => {
    const e = [...events].reverse().find((x) => x.type === 'job' && x.job.id === id && ['done', 'failed', 'cancelled'].includes(x.job.state));
    return e?.type === 'job' ? e.job : undefined;
  }, 120_000, `job ${id}`);

test('datasets.inspect lists a chosen file’s variables without loading them', async () => {
  const r = (await service.call('datasets.inspect', { file: ref('darcy.mat') })) as { name: string; format: string; variables: { name: string; shape: number[]; dtype: string }[] };
  assert.equal(r.name, 'darcy.mat');
  assert.match(r.format, /mat/i);
  const names = r.variables.map((v) => v.name).sort();
  assert.deepEqual(names, ['coeff', 'sol']);
  const coeff = r.variables.find((v) => v.name === 'coeff')!;
  assert.equal(coeff.shape.length, 3);
});

test('datasets.inspect names the file when it is not a data file', async () => {
  await assert.rejects(service.call('datasets.inspect', { file: ref('notes.txt') }), /notes\.txt/);
  await assert.rejects(service.call('datasets.inspect', { file: 'f_notissuedbythehost' }), /unknown file reference/);
});

test('datasets.import prepares the file into the store with the chosen mapping', async () => {
  const job = (await service.call('datasets.import', { file: ref('darcy.mat'), benchmark: 'darcy', input: ['coeff'], target: 'sol', train: 3, val: 2, resolution: 9 })) as JobSummary;
  const end = await jobEnd(job.id);
  assert.equal(end.state, 'done', end.error);
  const { id, counts } = end.result as { id: string; counts: { train: number; val: number } };
  assert.equal(counts.train, 3);
  assert.equal(counts.val, 2);
  const listed = (await service.call('workspace.get', {})) as { datasets: { id: string }[] };
  assert.ok(listed.datasets.some((d) => d.id === id));
  const sample = (await service.call('datasets.sample', { id, split: 'val', index: 0 })) as DatasetSample;
  assert.deepEqual(sample.grid, [9, 9]);
});

test('datasets.import fails naming the variable that is missing', async () => {
  const job = (await service.call('datasets.import', { file: ref('darcy.mat'), benchmark: 'darcy', input: ['coeff'], target: 'solution' })) as JobSummary;
  const end = await jobEnd(job.id);
  assert.equal(end.state, 'failed');
  assert.match(end.error ?? '', /'solution'/);
});

test('PDEBench through the API: a time series refused as identity, imported with a time split; groups and MATLAB order offered by inspect', async () => {
  const identity = (await service.call('datasets.import', { file: ref('1d_time.h5'), benchmark: 'custom', input: ['tensor'], target: 'tensor' })) as JobSummary;
  const refused = await jobEnd(identity.id);
  assert.equal(refused.state, 'failed');
  assert.match(refused.error ?? '', /identity task/);

  const job = (await service.call('datasets.import', {
    file: ref('1d_time.h5'), benchmark: 'custom', input: [], target: 'tensor', train: 4, val: 2,
    layout: { time: { axis: 1, mode: 'autoregressive', tIn: 5, tOut: 5 } },
  })) as JobSummary;
  const end = await jobEnd(job.id);
  assert.equal(end.state, 'done', end.error);
  const r = end.result as { grid: number[]; xChannels: string[]; yChannels: string[] };
  assert.deepEqual(r.grid, [16]);
  assert.equal(r.yChannels.length, 5);

  const groups = (await service.call('datasets.inspect', { file: ref('groups_2d.h5') })) as { groups?: { name: string; shape: number[] }[]; hints?: string[] };
  assert.deepEqual(groups.groups?.map((g) => `${g.name} [${g.shape.join(', ')}]`), ['data[0] [4, 6, 8, 8]', 'data[1] [4, 6, 8, 8]']);
  const g = (await service.call('datasets.import', {
    file: ref('groups_2d.h5'), benchmark: 'custom', input: ['data[0]', 'data[1]'], target: 'data[0]', train: 3, val: 1,
    layout: { groups: true, time: { axis: 1, mode: 'operator', t0: 0, t1: 5 } },
  })) as JobSummary;
  const gEnd = await jobEnd(g.id);
  assert.equal(gEnd.state, 'done', gEnd.error);
  assert.deepEqual((gEnd.result as { counts: { train: number } }).counts.train, 3);

  const ns = (await service.call('datasets.inspect', { file: ref('ns_matlab_order.h5') })) as { hints?: string[] };
  assert.ok(ns.hints?.some((h) => /MATLAB order/.test(h)), JSON.stringify(ns.hints));
  const nsJob = (await service.call('datasets.import', { file: ref('ns_matlab_order.h5'), benchmark: 'navier-stokes', input: [], target: 'u', train: 3, val: 1, layout: { axisOrder: 'reversed' } })) as JobSummary;
  const nsEnd = await jobEnd(nsJob.id);
  assert.equal(nsEnd.state, 'done', nsEnd.error);
});
