// safetensors: format checks, state-dict exchange with exact names/shapes, PyTorch round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { LinoOperator } from '../../../main/model/lino/operator';
import { parseSafetensors, serializeSafetensors, readSafetensorsFile, toFloat32, writeSafetensorsFile } from '../../../main/runs/safetensors';
import { saveWeights, loadWeights } from '../../../main/runs/state-dict';
import { FIXTURES, listCases, relErr } from '../../helpers/parity-cases';

const PY = '/usr/bin/python3';
const tmp = mkdtempSync(join(tmpdir(), 'lino-st-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function torchAvailable(): string | undefined {
  if (!existsSync(PY)) return `${PY} not found`;
  const r = spawnSync(PY, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `${PY} lacks torch/numpy: ${r.stderr.trim().split('\n').pop()}`;
}
const noTorch = torchAvailable();
if (noTorch) console.log(`# PyTorch round-trip test skipped: ${noTorch}`);

test('setup: cpu backend', async () => { assert.ok(await tf.setBackend('cpu')); });

test('serialize/parse round trip keeps names, shapes (incl. scalars), values and metadata', () => {
  const bytes = serializeSafetensors({
    'a.weight': { shape: [2, 3], data: Float32Array.from([1, 2, 3, 4, 5, -6.5]) },
    s: { shape: [], data: Float32Array.from([0.25]) },
  }, { format: 'pt' });
  const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  assert.equal(n % 8, 0, 'header padded to 8 bytes');
  const f = parseSafetensors(bytes);
  assert.deepEqual(f.metadata, { format: 'pt' });
  assert.deepEqual(f.tensors.get('a.weight')!.shape, [2, 3]);
  assert.deepEqual(Array.from(toFloat32(f.tensors.get('a.weight')!)), [1, 2, 3, 4, 5, -6.5]);
  assert.deepEqual(f.tensors.get('s')!.shape, []);
  assert.deepEqual(Array.from(toFloat32(f.tensors.get('s')!)), [0.25]);
});

test('rejects truncated files, oversized headers and inconsistent offsets, naming the file', () => {
  const good = serializeSafetensors({ w: { shape: [4], data: new Float32Array(4) } });
  assert.throws(() => parseSafetensors(good.subarray(0, 5), 'x.safetensors'), /x\.safetensors: file is 5 bytes/);
  const big = good.slice();
  new DataView(big.buffer).setBigUint64(0, 1n << 40n, true);
  assert.throws(() => parseSafetensors(big, 'x.safetensors'), /header length \d+ exceeds/);
  assert.throws(() => parseSafetensors(good.subarray(0, good.length - 4), 'x.safetensors'), /data ends at byte 16.*only 12 bytes/);
  const mk = (h: object, dataBytes: number) => {
    const j = new TextEncoder().encode(JSON.stringify(h));
    const out = new Uint8Array(8 + j.length + dataBytes);
    new DataView(out.buffer).setBigUint64(0, BigInt(j.length), true);
    out.set(j, 8);
    return out;
  };
  assert.throws(() => parseSafetensors(mk({ w: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, 8)), /span 8 bytes, F32 \[3\] needs 12/);
  assert.throws(() => parseSafetensors(mk({ w: { dtype: 'Q8', shape: [3], data_offsets: [0, 3] } }, 3)), /field 'dtype'/);
  assert.throws(() => parseSafetensors(mk({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] } }, 12)), /overlap/);
  const f64 = parseSafetensors(mk({ w: { dtype: 'F64', shape: [1], data_offsets: [0, 8] } }, 8));
  assert.deepEqual(Array.from(toFloat32(f64.tensors.get('w')!)), [0]);
});

test('a file written by PyTorch (fixture) loads with exact names and shapes', () => {
  const c = listCases().find((k) => k.name === '2d-all-eff')!;
  const m = new LinoOperator(c.config);
  const f = readSafetensorsFile(join(FIXTURES, `${c.name}.weights.safetensors`));
  assert.deepEqual([...f.tensors.keys()].sort(), [...m.variables.keys()].sort());
  loadWeights(m, join(FIXTURES, `${c.name}.weights.safetensors`));
  const k = 'blocks.1.scattering.local_conv.weight';
  assert.deepEqual(Array.from(m.variables.get(k)!.dataSync()), Array.from(toFloat32(f.tensors.get(k)!)));
  m.dispose();
});

test('mismatched weights are rejected with the first mismatches listed', async () => {
  const src = new LinoOperator({ dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 2, scattering: 'full' });
  const path = join(tmp, 'full.safetensors');
  await saveWeights(src, path);
  const eff = new LinoOperator({ dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 2, scattering: 'efficient' });
  assert.throws(() => loadWeights(eff, path), (e: Error) => {
    assert.match(e.message, /full\.safetensors: 16 mismatch\(es\)/);
    assert.match(e.message, /missing key 'blocks\.0\.scattering\.coord_mlp\.0\.weight' \(model expects \[8, 2\]\)/);
    assert.match(e.message, /and 8 more/);
    return true;
  });
  const wide = new LinoOperator({ dims: 2, inChannels: 4, outChannels: 1, width: 8, depth: 2, scattering: 'full' });
  assert.throws(() => loadWeights(wide, path), /shape of 'lifting\.linear\.weight': file has \[8, 3\], model expects \[8, 4\]/);
  for (const m of [src, eff, wide]) m.dispose();
});

test('save -> load in a fresh model reproduces the forward exactly', async () => {
  const cfg = { dims: 1, inChannels: 2, outChannels: 1, width: 8, depth: 2, scattering: 'efficient', seed: 3 } as const;
  const a = new LinoOperator(cfg);
  const b = new LinoOperator({ ...cfg, seed: 4 });
  const path = join(tmp, 'rt.safetensors');
  await saveWeights(a, path);
  loadWeights(b, path);
  const x = tf.randomNormal([2, 10, 2], 0, 1, 'float32', 1);
  assert.deepEqual(Array.from(a.forward(x).y.dataSync()), Array.from(b.forward(x).y.dataSync()));
  a.dispose();
  b.dispose();
});

test('a file we write loads in PyTorch with strict load_state_dict and gives our forward', { skip: noTorch }, async () => {
  for (const cfg of [
    { dims: 2, inChannels: 3, outChannels: 2, width: 8, depth: 2, scattering: 'efficient', seed: 9 },
    { dims: 1, inChannels: 2, outChannels: 1, width: 6, depth: 1, scattering: 'standard', components: ['reflection', 'scattering'], seed: 10 },
  ]) {
    const m = new LinoOperator(cfg);
    const wpath = join(tmp, 'ours.safetensors');
    const cpath = join(tmp, 'model.json');
    const io = join(tmp, 'x.safetensors');
    const out = join(tmp, 'y.safetensors');
    await saveWeights(m, wpath);
    writeFileSync(cpath, JSON.stringify(cfg));
    const x = tf.randomNormal(cfg.dims === 2 ? [2, 5, 4, cfg.inChannels] : [2, 9, cfg.inChannels], 0, 1, 'float32', 2);
    writeSafetensorsFile(io, { x: { shape: x.shape, data: x.dataSync() as Float32Array } });
    const r = spawnSync(PY, [new URL('../../../tools/parity/check_load.py', import.meta.url).pathname, '--config', cpath, '--weights', wpath, '--io', io, '--out', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`ok ${m.variables.size} keys`));
    const yRef = toFloat32(parseSafetensors(new Uint8Array(readFileSync(out))).tensors.get('y')!);
    const err = relErr(m.forward(x).y.dataSync() as Float32Array, yRef);
    assert.ok(err <= 1e-5, `forward rel. error vs torch ${err}`);
    m.dispose();
  }
});
