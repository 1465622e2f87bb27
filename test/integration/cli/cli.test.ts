// `lino predict` and `lino info` end to end on a committed PyTorch fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInputF32 } from '../../../main/cli/operator-files';
import { writeNpy } from '../../../main/data/formats/npy';
import { ndarray } from '../../../main/data/ndarray';
import { readSafetensorsFile, toFloat32 } from '../../../main/runs/safetensors';
import { FIXTURES, listCases, relErr } from '../../helpers/parity-cases';

const root = new URL('../../../', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'lino-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { encoding: 'utf8', cwd: root });

test('predict input: float32 and float64 .npy accepted, other dtypes rejected naming the file', () => {
  writeNpy(join(tmp, 'a.npy'), ndarray(Float32Array.from([1, -2, 3.5, 4, 5, 6]), [2, 3]));
  assert.deepEqual(readInputF32(join(tmp, 'a.npy')), { shape: [2, 3], data: Float32Array.from([1, -2, 3.5, 4, 5, 6]) });
  writeNpy(join(tmp, 'b.npy'), ndarray(Float64Array.from([0.5, 2]), [2]));
  assert.deepEqual(Array.from(readInputF32(join(tmp, 'b.npy')).data), [0.5, 2]);
  writeNpy(join(tmp, 'c.npy'), ndarray(Int32Array.from([1, 2]), [2]));
  assert.throws(() => readInputF32(join(tmp, 'c.npy')), /c\.npy: field 'dtype' is int32, expected float32/);
});

for (const name of ['2d-all-eff', '1d-all-full']) {
  test(`lino predict reproduces the PyTorch output (${name})`, () => {
    const c = listCases().find((k) => k.name === name)!;
    const io = readSafetensorsFile(join(FIXTURES, `${name}.io.safetensors`)).tensors;
    const x = io.get('x')!;
    writeNpy(join(tmp, 'x.npy'), ndarray(toFloat32(x), x.shape));
    writeFileSync(join(tmp, 'model.json'), JSON.stringify(c.config));
    const r = lino('predict', '--config', join(tmp, 'model.json'), '--weights', join(FIXTURES, `${name}.weights.safetensors`),
      '--input', join(tmp, 'x.npy'), '--out', join(tmp, 'y.npy'), '--backend', 'cpu', '--batch-size', '1');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /backend cpu/);
    const y = readInputF32(join(tmp, 'y.npy'));
    assert.deepEqual(y.shape, io.get('y')!.shape);
    const err = relErr(y.data, toFloat32(io.get('y')!));
    assert.ok(err <= 1e-5, `rel. error ${err}`);
  });
}

test('lino predict with model.json kind "fno" reproduces the PyTorch FNO output (2d)', () => {
  const dir = join(FIXTURES, 'fno');
  const c = (JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as { cases: { name: string; config: Record<string, unknown> }[] }).cases.find((k) => k.name === '2d')!;
  const io = readSafetensorsFile(join(dir, '2d.io.safetensors')).tensors;
  const x = io.get('x')!;
  writeNpy(join(tmp, 'xf.npy'), ndarray(toFloat32(x), x.shape));
  writeFileSync(join(tmp, 'fno.json'), JSON.stringify({ kind: 'fno', ...c.config }));
  const r = lino('predict', '--config', join(tmp, 'fno.json'), '--weights', join(dir, '2d.weights.safetensors'),
    '--input', join(tmp, 'xf.npy'), '--out', join(tmp, 'yf.npy'), '--backend', 'cpu');
  assert.equal(r.status, 0, r.stderr);
  const err = relErr(readInputF32(join(tmp, 'yf.npy')).data, toFloat32(io.get('y')!));
  assert.ok(err <= 1e-5, `rel. error ${err}`);
  writeFileSync(join(tmp, 'unknown.json'), JSON.stringify({ kind: 'unet', ...c.config }));
  const bad = lino('predict', '--config', join(tmp, 'unknown.json'), '--weights', join(dir, '2d.weights.safetensors'), '--input', join(tmp, 'xf.npy'), '--out', join(tmp, 'yf.npy'));
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /unknown\.json: field 'kind': expected one of 'deeponet', 'fno', 'lino', got "unet"/);
});

test('lino predict with model.json kind "deeponet" reproduces the PyTorch DeepONet output; lino info reads its keys', () => {
  const dir = join(FIXTURES, 'deeponet');
  const c = (JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as { cases: { name: string; config: Record<string, unknown> }[] }).cases.find((k) => k.name === '2d')!;
  const io = readSafetensorsFile(join(dir, '2d.io.safetensors')).tensors;
  const x = io.get('x')!;
  writeNpy(join(tmp, 'xd.npy'), ndarray(toFloat32(x), x.shape));
  writeFileSync(join(tmp, 'deeponet.json'), JSON.stringify({ kind: 'deeponet', ...c.config }));
  const r = lino('predict', '--config', join(tmp, 'deeponet.json'), '--weights', join(dir, '2d.weights.safetensors'),
    '--input', join(tmp, 'xd.npy'), '--out', join(tmp, 'yd.npy'), '--backend', 'cpu');
  assert.equal(r.status, 0, r.stderr);
  const err = relErr(readInputF32(join(tmp, 'yd.npy')).data, toFloat32(io.get('y')!));
  assert.ok(err <= 1e-5, `rel. error ${err}`);
  const i = lino('info', '--weights', join(dir, '2d.weights.safetensors'), '--json');
  assert.equal(i.status, 0, i.stderr);
  const j = JSON.parse(i.stdout);
  assert.equal(j.kind, 'deeponet');
  assert.deepEqual([j.config.dims, j.config.outChannels, j.config.width, j.config.layers, j.config.basis, j.config.branchInputs], [2, 1, 9, 3, 8, 6 * 5 * 2]);
});

test('lino predict rejects a config that does not match the weights, naming the mismatch', () => {
  const c = listCases().find((k) => k.name === '2d-all-eff')!;
  writeFileSync(join(tmp, 'bad.json'), JSON.stringify({ ...c.config, width: 16 }));
  writeNpy(join(tmp, 'x2.npy'), ndarray(new Float32Array(60), [1, 5, 4, 3]));
  const r = lino('predict', '--config', join(tmp, 'bad.json'), '--weights', join(FIXTURES, '2d-all-eff.weights.safetensors'),
    '--input', join(tmp, 'x2.npy'), '--out', join(tmp, 'y2.npy'), '--backend', 'cpu');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /mismatch\(es\) with the configured model/);
  assert.match(r.stderr, /shape of 'lifting\.linear\.weight': file has \[8, 3\], model expects \[16, 3\]/);
});

test('lino info prints keys, shapes and the inferred config', () => {
  const r = lino('info', '--weights', join(FIXTURES, '2d-all-eff.weights.safetensors'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.config, { dims: 2, inChannels: 3, outChannels: 2, width: 8, depth: 2, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] });
  assert.ok(j.tensors.some((t: { key: string; shape: number[] }) => t.key === 'blocks.1.scattering.local_conv.weight' && t.shape.join() === '8,1,3,3'));
  const t = lino('info', '--weights', join(FIXTURES, '1d-s-full.weights.safetensors'));
  assert.match(t.stdout, /"scattering":"full","components":\["scattering"\]/);
  assert.match(t.stdout, /note: dims is not determined/);
});
