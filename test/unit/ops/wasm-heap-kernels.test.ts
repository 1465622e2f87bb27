// Our heap kernels on wasm (main/ops/tfjs-internals/wasm-*.ts) refuse operands they cannot take,
// with the kernel's name and what it expected, and the backend answers the next call correctly.
// (The ops check shapes before calling them; these are the kernels' own guards. The products'
// refusals: matmul.test.ts; the spectral mix's dtype: fno-spectral-mix.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import '../../../main/ops/layer-norm';
import '../../../main/ops/householder';
import '../../../main/ops/scattering-output';
import '../../../main/ops/mix';
import '../../../main/ops/depthwise-conv';
import '../../../main/ops/gelu';
import '../../../main/ops/sum-squares';
import '../../../main/ops/relu-grad';
import '../../../main/ops/adamw-heap';
import { runFused } from '../../../main/ops/kernel-registry';

const z = (...s: number[]) => tf.zeros(s);

const REFUSALS: [string, () => Record<string, tf.Tensor>, Record<string, number>, RegExp][] = [
  ['LinoLayerNorm', () => ({ x: z(4, 8), w: z(7), b: z(8) }), {}, /LinoLayerNorm: expected x \[R, M\], w and b \[M\], dy \[R, M\] and stats \[R, 2\]; got x \[4, 8\] and w \[7\]/],
  ['LinoLayerNormGrad', () => ({ dy: z(4, 8), x: z(4, 8), w: z(8), stats: z(3, 2) }), {}, /LinoLayerNormGrad: .*stats \[3, 2\]/],
  ['LinoHouseholder', () => ({ h: z(4, 8), v: z(4, 7), c: tf.scalar(1) }), {}, /LinoHouseholder: operands of one shape expected, got \[4, 8\] and \[4, 7\]/],
  ['LinoHouseholderGrad', () => ({ g: z(4, 8), h: z(4, 8), v: z(4, 8), c: z(2) }), {}, /LinoHouseholderGrad: expected rows \[\.\.\., M\] and a scalar c, got \[4, 8\] and c \[2\]/],
  ['LinoScatteringOutput', () => ({ num: z(2, 3, 8), qk: z(2, 4, 1), yloc: z(6, 8), h: z(6, 8), gate: tf.scalar(0), ls: tf.scalar(0) }), {}, /LinoScatteringOutput: shapes num \[2,3,8\], qk \[2,4,1\].* do not fit rows \[R, M\]/],
  ['LinoMix', () => ({ alpha: z(2, 2), b0: z(6, 8) }), {}, /LinoMix: expected alpha \[B, K\] and K branches of one shape with B equal blocks, got alpha \[2, 2\] and 1 branch/],
  ['LinoDepthwiseFilterGrad', () => ({ x: z(1, 4, 4, 2), dy: z(1, 4, 4, 2) }), { kh: 2, kw: 3 }, /LinoDepthwiseFilterGrad: expected x and dy \[B, H, W, C\] of one shape and odd kernel sizes, got .* 2 x 3/],
  ['LinoGeluSlope', () => ({ x: tf.zeros([8], 'int32') }), {}, /LinoGeluSlope: inputs must be float32, got int32/],
  ['LinoSumSquares', () => ({ x: tf.zeros([8], 'int32') }), {}, /LinoSumSquares: inputs must be float32, got int32/],
  ['LinoAdamW', () => ({ p: z(4), g: z(4), m: z(3), v: z(4) }), { decay: 1, beta1: 0.9, beta2: 0.999, stepSize: 1e-3, sbc2: 1, eps: 1e-8, gradScale: 1 }, /LinoAdamW: expected p, g, m and v flat of one length, got \[4\], \[4\], \[3\] and \[4\]/],
  ['LinoAdamW', () => ({ p: z(2, 2), g: z(4), m: z(4), v: z(4) }), { decay: 1, beta1: 0.9, beta2: 0.999, stepSize: 1e-3, sbc2: 1, eps: 1e-8, gradScale: 1 }, /LinoAdamW: expected p, g, m and v flat of one length, got \[2, 2\]/],
  ['LinoReluGrad', () => ({ dy: z(4, 8), y: z(4, 7) }), {}, /LinoReluGrad: expected dy and y of one shape, float32, got \[4, 8\] float32 and \[4, 7\] float32/],
  ['LinoReluGrad', () => ({ dy: z(4), y: tf.zeros([4], 'int32') }), {}, /LinoReluGrad: (expected dy and y of one shape, float32|inputs must be float32)/],
];

test('our wasm heap kernels refuse operands they cannot take, and the backend still answers', async () => {
  assert.ok(await tf.setBackend('wasm'));
  for (const [name, inputs, attrs, message] of REFUSALS) {
    const ins = inputs();
    assert.throws(() => runFused(name, ins, attrs), message, name);
    tf.dispose(Object.values(ins));
  }
  // the next call: LayerNorm of rows with mean 0 and unit variance, weight 2, bias 1, gives 2 x + 1
  const x = tf.tensor2d([[1, -1, 1, -1], [2, -2, 2, -2]]);
  const [y] = runFused('LinoLayerNorm', { x, w: tf.fill([4], 2), b: tf.ones([4]) });
  const got = Array.from(y!.dataSync());
  [3, -1, 3, -1, 3, -1, 3, -1].forEach((v, i) => assert.ok(Math.abs(got[i]! - v) < 1e-4, `y[${i}] = ${got[i]}, expected ${v}`));
});
