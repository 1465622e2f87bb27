// Each fused op (one kernel forward, one backward) against its composed reference (tf ops and
// autodiff, on cpu): forward <= 1e-5 and gradients <= 1e-4 relative error, on cpu, wasm and
// webgpu (a software adapter here: SwiftShader). The fused kernel must actually have run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { householder, householderComposed } from '../../../main/ops/householder';
import { layerNorm, layerNormComposed } from '../../../main/ops/layer-norm';
import { gelu, geluComposed } from '../../../main/ops/gelu';
import { mixRows, mixRowsComposed } from '../../../main/ops/mix';
import { positiveFeature, positiveFeatureComposed } from '../../../main/ops/positive-feature';
import { scatteringOutput, scatteringOutputComposed } from '../../../main/ops/scattering-output';
import { hasFusedKernel, setFusedKernels } from '../../../main/ops/kernel-registry';
import { depthwiseConv } from '../../../main/ops/depthwise-conv';
import { ensureFastWasmKernels } from '../../../main/ops/tfjs-internals/wasm-kernels';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';
import { webgpuUnavailable } from '../../helpers/webgpu-env';
import { join } from 'node:path';
import { FIXTURES, listCases, relErr } from '../../helpers/parity-cases';
import { LinoOperator } from '../../../main/model/lino/operator';
import { readSafetensorsFile, toFloat32 } from '../../../main/runs/safetensors';
import { loadWeights } from '../../../main/runs/state-dict';

const webgpuSkip = await webgpuUnavailable();

/** Deterministic pseudo-random values in [-2, 2) (mulberry32), so every backend sees the same inputs. */
function values(n: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 4 - 2;
  }
  return out;
}

interface OpCase {
  name: string;
  kernels: string[];
  /** false: wasm keeps the composed ops (faster there); the op must still match. */
  wasm?: false;
  /** The kernels wasm runs instead of `kernels` (its own WebAssembly, main/ops/wasm/). */
  wasmKernels?: string[];
  shapes: number[][];
  /** Maps the raw inputs to the op's operands (e.g. a softmax for the mixture weights). */
  prep?: (xs: tf.Tensor[]) => tf.Tensor[];
  fused: (...xs: tf.Tensor[]) => tf.Tensor;
  composed: (...xs: tf.Tensor[]) => tf.Tensor;
}

const R = 24, M = 8;
const CASES: OpCase[] = [
  { name: 'householder (refraction, c tensor)', kernels: ['LinoHouseholder', 'LinoHouseholderGrad'], shapes: [[R, M], [R, M], []], fused: (h, v, c) => householder(h!, v!, c!), composed: (h, v, c) => householderComposed(h!, v!, c!) },
  { name: 'householder, width 7 (a scalar tail on wasm)', kernels: ['LinoHouseholder', 'LinoHouseholderGrad'], shapes: [[5, 7], [5, 7], []], fused: (h, v, c) => householder(h!, v!, c!), composed: (h, v, c) => householderComposed(h!, v!, c!) },
  // one row of v far below the 1e-6 clamp: the clamped branch of the gradient
  { name: 'householder (reflection, a clamped row)', kernels: ['LinoHouseholder', 'LinoHouseholderGrad'], shapes: [[2, 4, M], [2, 4, M]], prep: ([h, v]) => [h!, tf.mul(v!, tf.concat([tf.fill([1, 1, 1], 1e-8), tf.ones([1, 3, 1]), tf.ones([1, 4, 1])], 1).reshape([2, 4, 1]))], fused: (h, v) => householder(h!, v!, -2), composed: (h, v) => householderComposed(h!, v!, -2) },
  { name: 'layer norm', kernels: ['LinoLayerNorm', 'LinoLayerNormGrad'], shapes: [[R, M], [M], [M]], fused: (x, w, b) => layerNorm(x!, w!, b!), composed: (x, w, b) => layerNormComposed(x!, w!, b!) },
  { name: 'gelu', kernels: ['LinoGelu', 'LinoGeluGrad'], wasmKernels: ['LinoGeluSlope'], shapes: [[R, 2 * M]], prep: ([x]) => [tf.mul(x!, 2)], fused: (x) => gelu(x!), composed: (x) => geluComposed(x!) },
  // 35 values (not a multiple of wasm's four lanes) out to |x| = 14, where exp(-x^2/2) is clamped
  { name: 'gelu, 35 values, tails', kernels: ['LinoGelu', 'LinoGeluGrad'], wasmKernels: ['LinoGeluSlope'], shapes: [[7, 5]], prep: ([x]) => [tf.mul(x!, 7)], fused: (x) => gelu(x!), composed: (x) => geluComposed(x!) },
  { name: 'positive feature', wasm: false, kernels: ['LinoPositiveFeature', 'LinoPositiveFeatureGrad'], shapes: [[3 * 6, M], [6, M]], fused: (l, c) => positiveFeature(l as tf.Tensor2D, c as tf.Tensor2D, 0.6), composed: (l, c) => positiveFeatureComposed(l as tf.Tensor2D, c as tf.Tensor2D, 0.6) },
  // qk > 0 as in the model (a product of positive features)
  { name: 'scattering output', kernels: ['LinoScatteringOutput', 'LinoScatteringOutputGrad'], shapes: [[3, 6, M], [3, 6, 1], [18, M], [18, M], [], []], prep: ([n, q, ...r]) => [n!, tf.add(tf.abs(q!), 0.5), ...r],
    fused: (n, q, y, h, g, l) => scatteringOutput(n!, q!, y as tf.Tensor2D, h as tf.Tensor2D, g!, l!), composed: (n, q, y, h, g, l) => scatteringOutputComposed(n!, q!, y!, h!, g!, l!) },
  { name: 'scattering output, width 7 (a scalar tail on wasm)', kernels: ['LinoScatteringOutput', 'LinoScatteringOutputGrad'], shapes: [[3, 6, 7], [3, 6, 1], [18, 7], [18, 7], [], []], prep: ([n, q, ...r]) => [n!, tf.add(tf.abs(q!), 0.5), ...r],
    fused: (n, q, y, h, g, l) => scatteringOutput(n!, q!, y as tf.Tensor2D, h as tf.Tensor2D, g!, l!), composed: (n, q, y, h, g, l) => scatteringOutputComposed(n!, q!, y!, h!, g!, l!) },
  ...[1, 2, 3].map((K): OpCase => ({
    name: `branch mixture, K=${K}`, kernels: ['LinoMix', 'LinoMixGrad'], shapes: [[3, K], ...Array.from({ length: K }, () => [3 * 5, M])],
    prep: ([a, ...b]) => [tf.softmax(a!), ...b], fused: (a, ...b) => mixRows(a as tf.Tensor2D, b), composed: (a, ...b) => mixRowsComposed(a as tf.Tensor2D, b),
  })),
  // sizes past one reduction chunk (rows: 16,384 terms; columns: 512 rows), so the webgpu
  // reductions run their partial sums and second pass
  { name: 'branch mixture, K=2, 40,000 values per sample', kernels: ['LinoMix', 'LinoMixGrad'], shapes: [[2, 2], [2 * 5000, M], [2 * 5000, M]],
    prep: ([a, ...b]) => [tf.softmax(a!), ...b], fused: (a, ...b) => mixRows(a as tf.Tensor2D, b), composed: (a, ...b) => mixRowsComposed(a as tf.Tensor2D, b) },
  { name: 'layer norm, 1,500 rows', kernels: ['LinoLayerNorm', 'LinoLayerNormGrad'], shapes: [[1500, M], [M], [M]], fused: (x, w, b) => layerNorm(x!, w!, b!), composed: (x, w, b) => layerNormComposed(x!, w!, b!) },
  { name: "layer norm, width 7 (not a multiple of the wasm kernel's four lanes)", kernels: ['LinoLayerNorm', 'LinoLayerNormGrad'], shapes: [[30, 7], [7], [7]], fused: (x, w, b) => layerNorm(x!, w!, b!), composed: (x, w, b) => layerNormComposed(x!, w!, b!) },
  // the reference runs with the fused kernels off (the composed correlation)
  { name: 'depthwise conv 2D, 24x24', kernels: ['LinoDepthwiseFilterGrad'], shapes: [[2, 24, 24, 4], [4, 1, 3, 3]], fused: (x, k) => depthwiseConv(x!, k!), composed: (x, k) => depthwiseConv(x!, k!) },
  { name: 'depthwise conv 2D, 9x7, 6 channels (a scalar tail on wasm)', kernels: ['LinoDepthwiseFilterGrad'], shapes: [[2, 9, 7, 6], [6, 1, 3, 3]], fused: (x, k) => depthwiseConv(x!, k!), composed: (x, k) => depthwiseConv(x!, k!) },
  { name: 'depthwise conv 1D, 300 points', kernels: ['LinoDepthwiseFilterGrad'], shapes: [[2, 300, 4], [4, 1, 3]], fused: (x, k) => depthwiseConv(x!, k!), composed: (x, k) => depthwiseConv(x!, k!) },
];

type Result = { y: Float32Array; grads: Float32Array[] };

async function evaluate(c: OpCase, fn: (...xs: tf.Tensor[]) => tf.Tensor): Promise<Result> {
  const raw = c.shapes.map((s, i) => tf.tensor(values(s.reduce((a, b) => a * b, 1), 11 + i), s));
  const xs = c.prep ? c.prep(raw) : raw;
  const y = fn(...xs);
  const w = tf.tensor(values(y.size, 97), y.shape); // a random cotangent
  const grads = tf.grads((...a: tf.Tensor[]) => tf.sum(tf.mul(fn(...a), w)))(xs);
  const out = { y: (await y.data()) as Float32Array, grads: (await Promise.all(grads.map((g) => g.data()))) as Float32Array[] };
  tf.dispose([...raw, ...xs, y, w, ...grads]);
  return out;
}

async function checkBackend(backend: string): Promise<void> {
  assert.ok(await tf.setBackend('cpu'));
  const refs: Result[] = [];
  setFusedKernels(false);
  try {
    for (const c of CASES) refs.push(await evaluate(c, c.composed));
  } finally {
    setFusedKernels(true);
  }
  assert.ok(await tf.setBackend(backend));
  if (backend === 'wasm') ensureFastWasmKernels();
  for (const [i, c] of CASES.entries()) {
    const expected = backend !== 'wasm' || c.wasm !== false;
    const kernels = backend === 'wasm' && c.wasmKernels ? c.wasmKernels : c.kernels;
    for (const k of kernels) assert.equal(hasFusedKernel(k), expected, `${c.name}: ${k} kernel registered on ${backend}: expected ${expected}`);
    let got: Result | undefined;
    const counted = await countKernels(async () => { got = await evaluate(c, c.fused); });
    for (const k of kernels) assert.equal((counted.byName.get(k) ?? 0) > 0, expected, `${c.name}: ${k} ran on ${backend}: expected ${expected}`);
    const ref = refs[i]!;
    assert.ok(relErr(got!.y, ref.y) <= 1e-5, `${c.name} on ${backend}: forward error ${relErr(got!.y, ref.y)}`);
    ref.grads.forEach((g, j) => {
      const e = relErr(got!.grads[j]!, g);
      assert.ok(e <= 1e-4, `${c.name} on ${backend}: gradient ${j} error ${e}`);
    });
  }
}

test('fused ops match their composed references on cpu', () => checkBackend('cpu'));
test('fused ops match their composed references on wasm', () => checkBackend('wasm'));
test('fused ops match their composed references on webgpu', { skip: webgpuSkip ?? false }, () => checkBackend('webgpu'));

// The whole model on webgpu (fused kernels and batched matMuls) against the PyTorch fixtures,
// read asynchronously (webgpu's synchronous read needs OffscreenCanvas in Node).
test('LiNO on webgpu matches the parity fixtures (forward 1e-5, gradients 1e-4)', { skip: webgpuSkip ?? false }, async () => {
  assert.ok(await tf.setBackend('webgpu'));
  for (const c of listCases().filter((k) => ['2d-all-eff', '1d-all-full', '2d-ts-eff', '1d-r'].includes(k.name))) {
    const model = new LinoOperator(c.config);
    try {
      loadWeights(model, join(FIXTURES, `${c.name}.weights.safetensors`));
      const io = readSafetensorsFile(join(FIXTURES, `${c.name}.io.safetensors`)).tensors;
      const t = (k: string) => tf.tensor(toFloat32(io.get(k)!), io.get(k)!.shape);
      const [x, w] = [t('x'), t('loss_weight')];
      const { y } = model.forward(x);
      const fwd = relErr((await y.data()) as Float32Array, toFloat32(io.get('y')!));
      assert.ok(fwd <= 1e-5, `${c.name}: forward error ${fwd}`);
      const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(model.forward(x).y, w)) as tf.Scalar, [...model.variables.values()]);
      for (const [k, v] of model.variables) {
        const e = relErr((await grads[v.name]!.data()) as Float32Array, toFloat32(io.get(`grad.${k}`)!));
        assert.ok(e <= 1e-4, `${c.name}: gradient of ${k} error ${e}`);
      }
      tf.dispose([x, w, y, value, ...Object.values(grads)]);
    } finally {
      model.dispose();
    }
  }
});
