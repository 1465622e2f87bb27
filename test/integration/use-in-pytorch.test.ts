// The Python handoff: a run's best weights.safetensors carries the model config and the
// normalizers in its __metadata__, `lino info` shows them, and the "Use in PyTorch" snippet
// (tools/use_in_pytorch.py, included verbatim in docs/model.md and README.md) run with Debian's
// /usr/bin/python3 + python3-torch reproduces the workbench's prediction of a validation sample.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/env';
import { generateDataset } from '../../main/data/generate/index';
import { writeGeneratedDataset } from '../../main/data/export';
import { releaseOptions } from '../../main/data/pipeline';
import { makeSplit } from '../../main/data/stages/split';
import { decodeNpy, writeNpy } from '../../main/data/formats/npy';
import { ndarray } from '../../main/data/ndarray';
import { readSafetensorsFile } from '../../main/runs/safetensors';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ws = tempDir('lino-pytorch-');
after(() => ws.cleanup());
const env = { ...process.env, LINO_BACKEND: 'cpu' };
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { cwd: root, encoding: 'utf8', env, timeout: 300_000 });
const PY = '/usr/bin/python3';
const probe = spawnSync(PY, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
const noTorch = probe.status === 0 ? false : `${PY} cannot import torch and numpy (Debian python3-torch): ${(probe.stderr || String(probe.error)).trim().split('\n').pop()}`;
const SNIPPET = readFileSync(join(root, 'tools/use_in_pytorch.py'), 'utf8');

test('the "Use in PyTorch" snippet in docs/model.md and README.md is tools/use_in_pytorch.py verbatim', () => {
  for (const doc of ['docs/model.md', 'README.md']) {
    const text = readFileSync(join(root, doc), 'utf8');
    const m = /<!-- use_in_pytorch\.py -->\n```python\n([\s\S]*?)```\n<!-- \/use_in_pytorch\.py -->/.exec(text);
    assert.ok(m, `${doc}: a python block between <!-- use_in_pytorch.py --> markers`);
    assert.equal(m[1], SNIPPET, `${doc}: the snippet differs from tools/use_in_pytorch.py`);
  }
});

test('a tiny Darcy run: weights carry config and normalizers, lino info shows them, PyTorch reproduces the workbench prediction', { skip: noTorch }, async () => {
  const gen = await generateDataset('darcy', { preset: 'tiny', samples: 8, resolution: 9 });
  const [file] = await writeGeneratedDataset(gen, join(ws.path, 'data'), 'mat73');
  const cfgPath = join(ws.path, 'run.json');
  writeFileSync(cfgPath, JSON.stringify({ name: 'pt', model: { width: 8, depth: 2 }, data: { kind: 'file', benchmark: 'darcy', path: file, resolution: 9 }, epochs: 3, batchSize: 2, optimizer: { lr: 5e-3 } }));
  const t = lino('train', '--config', cfgPath, '--workspace', ws.path, '--id', 'pt', '--quiet');
  assert.equal(t.status, 0, t.stderr + t.stdout);
  const runDir = join(ws.path, 'runs/pt');
  const weights = join(runDir, 'checkpoints/best/weights.safetensors');

  // the file alone: model config and normalizers, equal to the checkpoint's state
  const meta = readSafetensorsFile(weights).metadata;
  const state = JSON.parse(readFileSync(join(runDir, 'checkpoints/best/state.json'), 'utf8'));
  assert.equal(meta.format, 'pt');
  const { seed: _initSeed, ...modelConfig } = JSON.parse(meta['lino.model_config']!); // seed: of the initial weights
  assert.deepEqual(modelConfig, { dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 2, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] });
  assert.deepEqual(JSON.parse(meta['lino.x_normalizer']!), { mean: state.normalizer.x.mean, std: state.normalizer.x.std, eps: state.normalizer.eps });
  assert.deepEqual(JSON.parse(meta['lino.y_normalizer']!), { mean: state.normalizer.y.mean, std: state.normalizer.y.std, eps: state.normalizer.eps });
  assert.equal(meta['lino.normalized'], 'true');
  const info = lino('info', '--weights', weights);
  assert.equal(info.status, 0, info.stderr);
  assert.match(info.stdout, /^lino\.x_normalizer: \{"mean":/m);
  assert.match(info.stdout, /^lino\.model_config: \{"dims":2/m);
  assert.deepEqual(JSON.parse(lino('info', '--weights', weights, '--json').stdout).metadata, meta);

  // the workbench's prediction of the validation split (decoded, physical units)
  const out = join(ws.path, 'eval');
  const e = lino('eval', '--run', runDir, '--checkpoint', 'best', '--split', 'val', '--export', out, '--json');
  assert.equal(e.status, 0, e.stderr);
  const preds = decodeNpy(readFileSync(JSON.parse(e.stdout).resolutions[0].predictionsFile), 'predictions', 'array');
  assert.deepEqual([...preds.shape], [2, 9, 9, 1]);
  const source = makeSplit(8, releaseOptions('darcy', 8).split).val[0]!; // the split the run used (one rule)
  // the export's indices name each row's sample in the source file
  const idxFile = JSON.parse(e.stdout).resolutions[0].exportFiles[2] as string;
  assert.match(idxFile, /-indices\.npy$/);
  assert.deepEqual(Array.from(decodeNpy(readFileSync(idxFile), 'indices', 'array').data, Number), [...makeSplit(8, releaseOptions('darcy', 8).split).val]);
  const coeff = gen.variables.coeff!;
  const sample = Float32Array.from((coeff.data as Float64Array).subarray(source * 81, (source + 1) * 81));
  const input = join(ws.path, 'input.npy');
  writeNpy(input, ndarray(sample, [9, 9, 1], 'float32'));

  const py = spawnSync(PY, [join(root, 'tools/use_in_pytorch.py'), runDir, input, join(ws.path, 'torch.npy')], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(py.status, 0, py.stderr + py.stdout);
  const got = decodeNpy(readFileSync(join(ws.path, 'torch.npy')), 'torch.npy', 'array');
  assert.deepEqual([...got.shape], [9, 9, 1]);
  let maxAbs = 0, maxRef = 0;
  for (let i = 0; i < 81; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(Number(got.data[i]) - Number(preds.data[i])));
    maxRef = Math.max(maxRef, Math.abs(Number(preds.data[i])));
  }
  console.log(`PyTorch vs workbench on validation sample 0 (source ${source}): max |diff| ${maxAbs.toExponential(2)}, max |prediction| ${maxRef.toExponential(2)}`);
  assert.ok(maxRef > 1e-4, 'a prediction that is not zero');
  assert.ok(maxAbs <= 1e-5, `max |diff| ${maxAbs}`);
  assert.ok(maxAbs <= 1e-5 * maxRef, `max |diff| ${maxAbs} relative to max |prediction| ${maxRef}`);
});
