// The PyTorch probe against small fake interpreters (one that hangs, one that prints garbage, one
// without torch, one with a too-old torch, a missing one) and the real Debian python3 with torch.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeTorch, torchMajorMinor } from '../../../main/train/torch-probe';
import { defaultTorchDevice, formatTorchReport, torchDeviceProblem } from '../../../main/train/torch-report';

const dir = mkdtempSync(join(tmpdir(), 'lino-torch-probe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function fake(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

test('a missing interpreter: Python not found, naming the command', async () => {
  const r = await probeTorch(join(dir, 'no-such-python'), 5000);
  assert.equal(r.ok, false);
  assert.match(r.problem!, /Python not found: '.*no-such-python'/);
  assert.match(r.install!, /LINO_PYTHON/);
});

test('an interpreter that hangs is killed at the deadline and says so', async () => {
  const p = fake('hangs', 'exec sleep 60');
  const t0 = Date.now();
  const r = await probeTorch(p, 500);
  assert.equal(r.ok, false);
  assert.match(r.problem!, /did not answer the probe within 1 s \(killed\)/);
  assert.ok(Date.now() - t0 < 20_000, 'the probe returned long before the interpreter would have ended');
});

test('an interpreter that prints garbage: no probe line, the output quoted', async () => {
  const r = await probeTorch(fake('garbage', 'echo "%%% not python %%%"; exit 3'), 5000);
  assert.equal(r.ok, false);
  assert.match(r.problem!, /did not answer the probe \(exit code 3.*%%% not python %%%/);
  const bad = await probeTorch(fake('bad-json', 'echo "LINO_TORCH_PROBE {not json"'), 5000);
  assert.match(bad.problem!, /the probe's answer is not JSON/);
});

test('an interpreter without torch; one with a too-old torch; one without numpy', async () => {
  const none = await probeTorch(fake('no-torch', `echo 'LINO_TORCH_PROBE {"pythonVersion": "3.11.2", "executable": "/x/python", "error": "torch: ModuleNotFoundError: No module named torch"}'`), 5000);
  assert.equal(none.ok, false);
  assert.match(none.problem!, /cannot import torch \(torch: ModuleNotFoundError/);
  const old = await probeTorch(fake('old-torch', `echo 'LINO_TORCH_PROBE {"pythonVersion": "3.8.0", "torch": "1.12.1+cu113", "numpy": "1.21.0", "cuda": [], "mps": false, "cpuThreads": 4}'`), 5000);
  assert.equal(old.ok, false);
  assert.match(old.problem!, /torch 1\.12\.1\+cu113 .* is too old: .* needs torch >= 1\.13/);
  const nonp = await probeTorch(fake('no-numpy', `echo 'LINO_TORCH_PROBE {"pythonVersion": "3.11.2", "torch": "2.1.0", "cuda": [], "mps": false, "cpuThreads": 4, "error": "numpy: ModuleNotFoundError: x"}'`), 5000);
  assert.match(nonp.problem!, /has torch 2\.1\.0 but cannot import numpy/);
});

test('a fake CUDA machine: devices, default device, what a run may ask', async () => {
  const r = await probeTorch(fake('cuda', `echo 'LINO_TORCH_PROBE {"pythonVersion": "3.12.1", "executable": "/opt/py", "torch": "2.11.0+cu130", "numpy": "2.0.0", "cuda": [{"name": "NVIDIA H200", "memoryBytes": 150000000000}], "mps": false, "cpuThreads": 16, "torchrun": true}'`), 5000);
  assert.equal(r.ok, true);
  assert.equal(defaultTorchDevice(r), 'cuda');
  assert.equal(torchDeviceProblem(r, 'cuda', 1), null);
  assert.match(torchDeviceProblem(r, 'cuda', 2)!, /2 GPUs asked, .* sees 1/);
  assert.match(torchDeviceProblem(r, 'mps')!, /no Apple MPS/);
  assert.match(formatTorchReport(r), /PyTorch 2\.11\.0\+cu130 .*cuda:0 NVIDIA H200 \(139\.7 GiB\)/);
});

test('versions: a pre-release of 1.13 counts as 1.13', () => {
  assert.deepEqual(torchMajorMinor('1.13.0a0+gitunknown'), [1, 13]);
  assert.equal(torchMajorMinor('dev'), null);
});

const REAL = '/usr/bin/python3';
const hasTorch = spawnSync(REAL, ['-c', 'import torch, numpy'], { timeout: 60_000 }).status === 0;
test('the real python3 with Debian torch 1.13', { skip: hasTorch ? false : `${REAL} cannot import torch and numpy` }, async () => {
  const r = await probeTorch(REAL, 60_000);
  assert.equal(r.ok, true, r.problem);
  assert.match(r.torch!, /^1\.13/);
  assert.ok(r.cpuThreads! >= 1);
  assert.equal(defaultTorchDevice(r), r.cuda.length ? 'cuda' : 'cpu');
  assert.match(formatTorchReport(r), /^PyTorch 1\.13/);
});
