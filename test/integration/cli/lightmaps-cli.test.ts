// `lino lightmaps` end to end: the raw-operator path against the PyTorch light-map fixtures (every
// file, values <= 1e-5), a switched-off branch writes no file, usage errors exit 2; the --run path
// and --correlate on a tiny trained Darcy run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { readInputF32 } from '../../../main/cli/operator-files';
import { writeNpy } from '../../../main/data/formats/npy';
import { ndarray } from '../../../main/data/ndarray';
import { readSafetensorsFile, toFloat32 } from '../../../main/runs/safetensors';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import { interfaceIndicator, LightMapCorrelation, Pearson } from '../../../main/model/lino/light-map-correlation';
import { relErr } from '../../helpers/parity-cases';
import { tempDir } from '../../helpers/env';

const root = new URL('../../../', import.meta.url).pathname;
const DIR = new URL('../../fixtures/lightmaps/', import.meta.url).pathname;
const ws = tempDir('lino-lightmaps-');
after(() => ws.cleanup());
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { encoding: 'utf8', cwd: root });
const cases: { name: string; config: Record<string, unknown>; query: number[] | null }[] = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')).cases;

for (const name of ['2d-all-eff', '1d-all-full', '1d-rt']) {
  test(`lino lightmaps writes the reference maps (${name})`, () => {
    const c = cases.find((k) => k.name === name)!;
    const io = readSafetensorsFile(join(DIR, `${c.name}.maps.safetensors`)).tensors;
    const x = io.get('x')!;
    const dir = join(ws.path, name);
    writeNpy(join(ws.path, `${name}.x.npy`), ndarray(toFloat32(x), x.shape));
    writeFileSync(join(ws.path, `${name}.json`), JSON.stringify(c.config));
    const r = lino('lightmaps', '--config', join(ws.path, `${name}.json`), '--weights', join(DIR, `${name}.weights.safetensors`),
      '--input', join(ws.path, `${name}.x.npy`), '--out', dir, '--backend', 'cpu', ...(c.query ? ['--query', c.query.join(',')] : []));
    assert.equal(r.status, 0, r.stderr);
    const all = readdirSync(dir).sort();
    const files = all.filter((f) => f.endsWith('.npy'));
    assert.deepEqual(files, [...io.keys()].filter((k) => k !== 'x').map((k) => `${k}.npy`).sort());
    assert.equal(all.includes('query.json'), c.query !== null && (c.config.components as string[]).includes('scattering'));
    if (name === '2d-all-eff') {
      const q = JSON.parse(readFileSync(join(dir, 'query.json'), 'utf8'));
      assert.deepEqual(q.query, [4, 3]);
      assert.deepEqual(q.blocks[0].indices, [14, 15, 18, 19]); // (4, 3) is the corner of the 5x4 grid
      assert.ok(q.blocks[0].beta > 0 && q.blocks[0].beta < 1);
    }
    if (name === '1d-rt') assert.ok(!files.some((f) => f.includes('scattering')), 'a switched-off branch has no file');
    for (const f of files) {
      const ours = readInputF32(join(dir, f));
      const ref = io.get(f.replace(/\.npy$/, ''))!;
      assert.deepEqual(ours.shape, ref.shape, f);
      const e = relErr(ours.data, toFloat32(ref));
      assert.ok(e <= 1e-5, `${name}/${f}: rel. error ${e}`);
    }
  });
}

test('lino lightmaps usage errors exit 2', () => {
  assert.equal(lino('lightmaps', '--input', 'x.npy').status, 2);
  const q = lino('lightmaps', '--weights', 'w', '--input', 'x', '--out', 'd', '--query', '1,2,3');
  assert.equal(q.status, 2);
  assert.match(q.stderr, /--query is '1,2,3', expected i or i,j/);
  assert.match(lino('lightmaps', '--weights', 'w', '--input', 'x', '--out', 'd', '--correlate').stderr, /--correlate needs --run/);
  assert.match(lino('help', 'lightmaps').stdout, /block\{b\}_reflection_activity\.npy/);
});

test('interface indicator: finite differences of a ramp and a step', () => {
  // a = 2 * x along a 5-point axis (spacing 1/4): |grad a| = 2 everywhere, borders included
  const ramp = interfaceIndicator([0, 0.5, 1, 1.5, 2], [1, 5, 1]);
  assert.deepEqual(Array.from(ramp).map((v) => +v.toFixed(5)), [2, 2, 2, 2, 2]);
  // 2D step in the second axis (spacing 1/2): central difference 1 beside it, one-sided 2 on the border
  const step = interfaceIndicator([0, 0, 1, 0, 0, 1], [1, 2, 3, 1]);
  assert.deepEqual(Array.from(step), [0, 1, 2, 0, 1, 2]);
  const p = new Pearson();
  p.add([1, 2, 3], [2, 4, 6.5]);
  assert.ok(p.value() > 0.99 && p.value() <= 1);
  const acc = new LightMapCorrelation();
  // two samples of 3 points; reflection activity equals the indicator in one, its negative in the other
  const ind = interfaceIndicator([0, 0, 1, 0, 1, 1], [2, 3, 1]); // [0, 1, 2] then [2, 1, 0]
  const refl = Float32Array.from([0, 1, 2, -2, -1, 0]);
  acc.add({ batch: 2, grid: [3], blocks: [{ reflectionActivity: refl, contribution: {}, dominant: new Int32Array(6), latentNorm: new Float32Array(6), components: ['reflection'] }], gates: new Float32Array(2), y: undefined as never }, [0, 0, 1, 0, 1, 1], [2, 3, 1]);
  assert.deepEqual(Array.from(ind), [0, 1, 2, 2, 1, 0]);
  const row = acc.table()[0]!;
  assert.ok(Math.abs(row.mean.reflectionActivity!) < 1e-12 && Math.abs(row.std.reflectionActivity! - 1) < 1e-12, JSON.stringify(row));
  assert.equal(row.pooled.refractionActivity, undefined);
  const n = new Pearson();
  n.add([1, 1], [1, 2]);
  assert.ok(Number.isNaN(n.value()));
});

test('lino lightmaps --run: a trained Darcy run, one sample, and --correlate', async () => {
  await tf.setBackend('cpu');
  const store = new RunStore(join(ws.path, 'runs'));
  const h = store.create({ name: 'lm', model: { width: 6, depth: 2 }, epochs: 1, batchSize: 2,
    data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, resolution: 9, train: 4, val: 2, test: 0 } }, 'lm');
  assert.equal((await trainRun(h, { workspace: ws.path })).state, 'done');
  const out = join(ws.path, 'lm-maps');
  const r = lino('lightmaps', '--run', h.dir, '--checkpoint', 'last', '--sample', '1', '--out', out, '--query', '4,4', '--backend', 'cpu');
  assert.equal(r.status, 0, r.stderr);
  const refl = readInputF32(join(out, 'block1_reflection_activity.npy'));
  assert.deepEqual(refl.shape, [1, 9, 9]);
  assert.ok(refl.data.every((v) => v >= 0 && v <= 1 + 1e-6), 'activity is a share in [0, 1]');
  const k = readInputF32(join(out, 'block0_scattering_kernel.npy'));
  assert.deepEqual(k.shape, [1, 9, 9]);
  assert.deepEqual(readInputF32(join(out, 'gates.npy')).shape, [2, 1, 3]);
  const bad = lino('lightmaps', '--run', h.dir, '--checkpoint', 'last', '--sample', '2', '--out', out, '--backend', 'cpu');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--sample 2 asked for, the 'val' split has 2 samples/);
  const csv = join(ws.path, 'corr.csv');
  const tex = join(ws.path, 'corr.tex');
  const c = lino('lightmaps', '--run', h.dir, '--checkpoint', 'last', '--correlate', '--csv', csv, '--latex', tex, '--backend', 'cpu');
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /Pearson r with \|grad a\|.*2 samples/);
  const rows = readFileSync(csv, 'utf8').trim().split('\n');
  assert.equal(rows[0], 'block,statistic,reflectionActivity,refractionActivity,reflection,refraction,scattering');
  assert.deepEqual(rows.slice(1).map((r) => r.split(',').slice(0, 2).join()), ['0,pooled', '0,mean', '0,std', '1,pooled', '1,mean', '1,std']);
  for (const row of rows.slice(1)) for (const v of row.split(',').slice(2)) assert.ok(Math.abs(Number(v)) <= 1, row);
  const latex = readFileSync(tex, 'utf8');
  assert.match(latex, /^\\begin\{tabular\}\{llrrrrr\}/);
  assert.equal(latex.match(/\\\\$/gm)?.length, 7, 'a header row and three rows per block');
});
