// The pieces of a PyTorch run that need no Python: the command line (one process, torchrun for
// several GPUs), --backend parsing, the failure reasons (CUDA out of memory names the batch size).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTorchBackend, pythonFailureReason, resolveTorchDevice, torchCommand } from '../../../main/train/torch-run';
import { TorchReport } from '../../../main/train/torch-report';

test('the command: python -m scaleout.train, or torch.distributed.run for gpus > 1', () => {
  const one = torchCommand({ python: 'py', runDir: '/ws/runs/r', dataDir: '/ws/.lino/torch-data/k', device: 'cpu', gpus: 1 });
  assert.equal(one.cmd, 'py');
  assert.deepEqual(one.args.slice(0, 3), ['-u', '-m', 'scaleout.train']);
  assert.ok(one.args.includes('--control') && one.args.includes('--device'));
  assert.ok(!one.args.includes('--max-epochs'));
  const limited = torchCommand({ python: 'py', runDir: '/r', dataDir: '/d', device: 'cpu', gpus: 1, maxEpochs: 2 });
  assert.deepEqual(limited.args.slice(-2), ['--max-epochs', '2']);
  const many = torchCommand({ python: 'py', runDir: '/r', dataDir: '/d', device: 'cuda', gpus: 4 });
  assert.deepEqual(many.args.slice(0, 5), ['-u', '-m', 'torch.distributed.run', '--standalone', '--nproc_per_node=4']);
});

test('--backend torch[:device]', () => {
  assert.deepEqual(parseTorchBackend('torch'), {});
  assert.deepEqual(parseTorchBackend('torch:mps'), { device: 'mps' });
  assert.equal(parseTorchBackend('torch:tpu'), null);
  assert.equal(parseTorchBackend('wasm'), null);
});

test('the device: the config\'s, else the probe\'s best; refused where the probe has none', () => {
  const cpuOnly = TorchReport.parse({ python: 'py', ok: true, torch: '2.1.0', cpuThreads: 4 });
  assert.deepEqual(resolveTorchDevice({}, cpuOnly), { device: 'cpu', gpus: 1, problem: null });
  assert.match(resolveTorchDevice({ torch: { device: 'cuda', gpus: 1 } }, cpuOnly).problem!, /sees no CUDA GPU/);
  const missing = TorchReport.parse({ python: 'py', ok: false, problem: 'Python not found' });
  assert.equal(resolveTorchDevice({}, missing).problem, 'Python not found');
});

test('failure reasons: CUDA out of memory names the batch size; otherwise the traceback\'s last line', () => {
  const oom = ['Traceback (most recent call last):', '  File "x.py", line 1', 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'];
  assert.match(pythonFailureReason(oom, 1, 64), /out of GPU memory \(CUDA out of memory\) at batch size 64: set microBatch to 32 \(the same batch of 64 in smaller pieces/);
  assert.match(pythonFailureReason(oom, 1, 64, 16), /at batch size 64 in micro-batches of 16: set microBatch to 8 /);
  assert.match(pythonFailureReason(oom, 1, 64, 1), /at batch size 64 in micro-batches of 1: one sample does not fit/);
  assert.equal(pythonFailureReason(['Traceback (most recent call last):', 'ValueError: bad'], null, 4), 'PyTorch exited with an unknown code (started by an earlier engine): ValueError: bad');
  assert.equal(pythonFailureReason(['Traceback (most recent call last):', '  File "x"', 'ValueError: bad'], 1, 4), 'PyTorch exited with code 1: ValueError: bad');
  assert.equal(pythonFailureReason([], 2, 4), 'PyTorch exited with code 2: no output');
});
