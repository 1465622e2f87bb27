// The backend choice the Training, Ablation and Reproduce views share (renderer/src/logic/backend-choice.ts):
// which torch choices a probe rules out and why, what a choice puts into a run configuration (an
// ablation's base run switched either way), and how a measured speed reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backendConfig, choiceOf, choiceProblem, reproduceBackend, speedRatioText, speedText, withBackend } from '../../../renderer/src/logic/backend-choice';
import { TorchReport, TorchSpeed } from '../../../main/api/contract';

const cpuOnly = TorchReport.parse({ python: '/opt/env/bin/py', ok: true, torch: '1.13.0', cpuThreads: 2 });
const missing = TorchReport.parse({ python: '/opt/env/bin/py', ok: false, problem: 'py cannot import torch', install: 'pip install torch' });

test('a probe rules torch choices out with its reason; the engine is always there', () => {
  assert.equal(choiceProblem('engine', missing), null);
  assert.equal(choiceProblem('torch:cpu', null), 'looking for PyTorch…');
  assert.equal(choiceProblem('torch:cpu', missing), 'py cannot import torch');
  assert.equal(choiceProblem('torch:cpu', cpuOnly), null);
  assert.match(choiceProblem('torch:cuda', cpuOnly)!, /sees no CUDA GPU/);
  assert.match(choiceProblem('torch:mps', cpuOnly)!, /no Apple MPS/);
});

test('a choice in a run configuration, and an ablation base run switched either way', () => {
  assert.deepEqual(backendConfig('engine'), {});
  assert.deepEqual(backendConfig('torch:cuda'), { backend: 'torch', torch: { device: 'cuda' } });
  const engineBase = { model: { width: 8 }, backend: 'wasm', epochs: 3 };
  const torchBase = { model: { width: 8 }, backend: 'torch', torch: { device: 'cuda', gpus: 2 }, epochs: 3 };
  assert.deepEqual(withBackend(engineBase, 'torch:cpu'), { model: { width: 8 }, epochs: 3, backend: 'torch', torch: { device: 'cpu' } });
  assert.deepEqual(withBackend(engineBase, 'engine'), engineBase, 'an engine backend the base named stays');
  assert.deepEqual(withBackend(torchBase, 'engine'), { model: { width: 8 }, epochs: 3 }, 'torch settings go');
  assert.deepEqual([choiceOf(engineBase), choiceOf(torchBase), choiceOf({ backend: 'torch' }), choiceOf(null)], ['engine', 'torch:cuda', 'torch:cpu', 'engine']);
  assert.deepEqual([reproduceBackend('engine'), reproduceBackend('torch:mps')], [undefined, 'torch:mps']);
});

test('a measured speed reads as faster or slower, with both step times and when', () => {
  assert.equal(speedRatioText(2.14), '2.1× faster');
  assert.equal(speedRatioText(1.04), '1.04× faster');
  assert.equal(speedRatioText(0.5), '2.0× slower');
  assert.equal(speedRatioText(0), 'not comparable');
  const s = TorchSpeed.parse({ python: '/opt/env/bin/py', torch: '1.13.0', device: 'cpu', threads: 2, engineBackend: 'wasm', caseLabel: 'LiNO 32² (width 32, depth 4, batch 4)', steps: 5, torchMsPerStep: 24, engineMsPerStep: 51.3, torchWarmupMs: 40, engineWarmupMs: 90, speedup: 51.3 / 24, measuredAt: '2026-11-28T16:02:00.000Z' });
  assert.equal(speedText(s, () => '16:02'), 'torch cpu: 2.1× faster than wasm here (24.0 ms against 51.3 ms a step), measured 16:02 on a LiNO 32² (width 32, depth 4, batch 4) step');
});
