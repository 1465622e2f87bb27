// `lino eval --spectrum DIR` end to end on tiny trained runs: Darcy (LiNO) writes diagnostics.json and
// the spectrum, bands and physics CSVs, the truth's Darcy residual at the float32 storage floor beside a
// larger one for the prediction; a Navier-Stokes rollout gets one spectrum and one drift per step;
// Burgers (DeepONet) the drift of the integral of u.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import * as tf from '../../../main/ops/tf';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ws = tempDir('lino-eval-diag-');
after(() => ws.cleanup());
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, LINO_BACKEND: 'cpu' }, timeout: 300_000 });

async function trained(id: string, config: Record<string, unknown>): Promise<string> {
  await tf.setBackend('cpu');
  const h = new RunStore(join(ws.path, 'runs')).create({ name: id, epochs: 2, batchSize: 2, optimizer: { lr: 5e-3 }, ...config }, id);
  const r = await trainRun(h, { workspace: ws.path });
  assert.equal(r.state, 'done', r.reason);
  return h.dir;
}

test('lino eval --spectrum: tiny Darcy (LiNO): JSON and CSV, fRMSE bands, residual of prediction and truth', async () => {
  const dir = await trained('darcy-diag', { model: { width: 6, depth: 1 }, data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2 } });
  const out = join(ws.path, 'darcy-spectrum');
  const e = lino('eval', '--run', dir, '--checkpoint', 'last', '--spectrum', out);
  assert.equal(e.status, 0, e.stderr + e.stdout);
  assert.match(e.stdout, /fRMSE \(PDEBench, shells <4 \| 4-11 \| >=12\): low \S+ {2}mid \S+ {2}high \S+/);
  assert.match(e.stdout, /physics \(.*generator's discretization.*\): prediction \S+, truth \S+/);
  const j = JSON.parse(readFileSync(join(out, 'diagnostics.json'), 'utf8'));
  const d = j.resolutions[0].diagnostics;
  assert.deepEqual(d.spectrum.grid, [29, 29]);
  assert.equal(d.spectrum.perSample.length, 2);
  assert.equal(d.spectrum.mean.error.length, 20, 'shells 0..floor(sqrt(14^2 + 14^2)) = 0..19');
  for (const b of ['low', 'mid', 'high']) assert.ok(d.spectrum.mean.fRmse[b] > 0, `fRMSE ${b}: ${d.spectrum.mean.fRmse[b]}`);
  // the stored truth is float32: its residual sits at that rounding (~1e-5 at 29), far below a 2-epoch model's
  assert.ok(d.physics.mean.truth < 1e-4, `truth residual ${d.physics.mean.truth}`);
  assert.ok(d.physics.mean.prediction > 10 * d.physics.mean.truth, `prediction ${d.physics.mean.prediction} vs truth ${d.physics.mean.truth}`);
  assert.equal(d.physics.map.prediction.length, 29 * 29);
  const csv = (f: string) => readFileSync(join(out, f), 'utf8').trim().split('\r\n');
  const spec = csv('spectrum.csv');
  assert.equal(spec[0], 'grid,scope,index,k,E_error,E_truth,relative');
  assert.equal(spec.length, 1 + 20 * (1 + 1 + 2), 'mean, one channel, two samples');
  const bands = csv('bands.csv');
  assert.equal(bands[0], 'grid,scope,index,fRMSE_low,fRMSE_mid,fRMSE_high,rel_low,rel_mid,rel_high');
  assert.match(bands[1]!, /^29x29,mean,,[0-9.e-]+,[0-9.e-]+,[0-9.e-]+,/);
  assert.deepEqual(csv('physics.csv').map((r) => r.split(',').slice(0, 4).join()), ['grid,benchmark,scope,index', '29x29,darcy,mean,', '29x29,darcy,sample,0', '29x29,darcy,sample,1']);
  // per LiNO branch: one spectrum per block and branch, band shares summing to one
  assert.match(e.stdout, /block 0: reflection [0-9.]+\/[0-9.]+\/[0-9.]+ {2}refraction .* {2}scattering /);
  assert.equal(j.branchSpectra.blocks.length, 1);
  assert.deepEqual(j.branchSpectra.blocks[0].components, ['reflection', 'refraction', 'scattering']);
  const shares = j.branchSpectra.blocks[0].bandShare;
  assert.ok(Math.abs(shares.reflection.high + shares.refraction.high + shares.scattering.high - 1) < 1e-9);
  assert.equal(csv('branch-bands.csv')[0], 'block,branch,share_low,share_mid,share_high');
  assert.equal(csv('branch-spectra.csv').length, 1 + 3 * 20);
  // an existing non-empty folder is refused (nothing overwritten)
  const again = lino('eval', '--run', dir, '--checkpoint', 'last', '--spectrum', out);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /--spectrum names a folder that is not empty/);
});

test('lino eval --spectrum: Navier-Stokes rollout per step, Burgers drift of the integral of u', async () => {
  const ns = await trained('ns-diag', { model: { width: 6, depth: 1 }, batchSize: 1, data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 6, train: 3, val: 1, tIn: 3, tOut: 3, resolution: 16 } });
  const e = lino('eval', '--run', ns, '--checkpoint', 'last', '--steps', '2', '--spectrum', join(ws.path, 'ns-spectrum'), '--json');
  assert.equal(e.status, 0, e.stderr + e.stdout);
  const d = JSON.parse(e.stdout).resolutions[0].diagnostics;
  assert.equal(d.spectrum.channels, 2, 'one spectrum per rollout step');
  assert.equal(d.spectrum.perChannel.length, 2);
  assert.equal(d.spectrum.mean.fRmse.high, null, 'a 16x16 grid has shells 0..7: no high band');
  assert.equal(d.physics.benchmark, 'navier-stokes');
  assert.equal(d.physics.perStep.length, 2);
  assert.ok(d.physics.perStep.every((s: { truth: number }) => s.truth < 1e-2), JSON.stringify(d.physics.perStep));
  // the vorticity equation between frames one time unit apart, on a grid strided from the solver's
  assert.equal(d.physics.equation.perStep.length, 2);
  assert.ok(d.physics.equation.mean.truth < 0.5, `truth ${d.physics.equation.mean.truth}`); // 16x16 strided from the 32x32 solve: about 0.24
  assert.ok(d.physics.equation.mean.prediction > d.physics.equation.mean.truth, JSON.stringify(d.physics.equation.mean));
  assert.equal(d.physics.equation.map.prediction.length, 16 * 16);
  const bg = await trained('burgers-diag', { model: { kind: 'deeponet', width: 8, depth: 2 }, data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny', samples: 4, train: 3, val: 1 } });
  const b = lino('eval', '--run', bg, '--checkpoint', 'last', '--spectrum', join(ws.path, 'bg-spectrum'), '--json');
  assert.equal(b.status, 0, b.stderr + b.stdout);
  const p = JSON.parse(b.stdout).resolutions[0].diagnostics.physics;
  assert.equal(p.benchmark, 'burgers');
  // the solver conserves the integral on its 256-point grid; the stored 64 points stride it, so their mean is ~1e-4 off
  assert.ok(p.mean.truth < 1e-2, `the truth's drift on the stored grid: ${p.mean.truth}`);
  assert.ok(Number.isFinite(p.mean.prediction));
  assert.equal(JSON.parse(readFileSync(join(ws.path, 'bg-spectrum', 'diagnostics.json'), 'utf8')).branchSpectra, null, 'DeepONet has no branches');
});
