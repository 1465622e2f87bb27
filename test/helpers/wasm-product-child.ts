// Child process of test/unit/ops/wasm-threads.test.ts: the wasm backend on LINO_WASM_THREADS threads,
// a DeepONet-sized product (841 x 128 x 128, 27.6 Mflop: on the pool), a small one and the big one's
// gradients, our own products (split over our helper threads in the threaded build), and FNO's spectral mix, GELU and LayerNorm with their gradients (our own SIMD kernels, on a shared
// memory in the threaded build), printed as JSON. It never calls process.exit: the test checks that it ends by itself.
import * as tf from '../../main/ops/tf';
import { selectBackend } from '../../main/ops/backend';
import { spectralMix } from '../../main/ops/spectral-mix';
import { gelu } from '../../main/ops/gelu';
import { layerNorm } from '../../main/ops/layer-norm';
import { matMulAB, matMulABT } from '../../main/ops/matmul-ab';
import { matMulTA } from '../../main/ops/matmul-ta';
import { reluGrad } from '../../main/ops/relu-grad';
import { helperChunks, helpersServing } from '../../main/ops/tfjs-internals/wasm-helper-threads';

const report = await selectBackend('wasm');
const be = tf.backend() as never;
// our products split over our helper threads in the threaded build: wait until they serve
tf.dispose(matMulAB(tf.ones([64, 64]), tf.ones([64, 64])));
const t0 = Date.now();
while (report.attempts.at(-1)!.reason.includes('2 threads') && !helpersServing(be) && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
const a = tf.tensor(Float32Array.from({ length: 841 * 128 }, (_, i) => Math.sin(i * 0.37)), [841, 128]);
const w = tf.tensor(Float32Array.from({ length: 128 * 128 }, (_, i) => Math.cos(i * 0.11) * 0.1), [128, 128]);
const small = tf.tensor(Float32Array.from({ length: 64 * 128 }, (_, i) => Math.cos(i * 0.5)), [64, 128]);
const g = tf.grads((x: tf.Tensor, v: tf.Tensor) => tf.sum(tf.square(tf.matMul(x, v))))([a, w]);
const x = tf.tensor(Float32Array.from({ length: 2 * 6 * 5 * 2 * 10 }, (_, i) => Math.sin(i * 0.23)), [2, 6, 5, 2, 10]);
const ws = [1, 2].map((s) => tf.tensor(Float32Array.from({ length: 6 * 4 * 5 * 5 * 2 }, (_, i) => Math.cos(i * 0.07 * s)), [6, 4, 5, 5, 2]));
const mixGrads = tf.grads((xx: tf.Tensor, w1: tf.Tensor, w2: tf.Tensor) => tf.sum(tf.square(spectralMix(xx, [w1, w2]))))([x, ...ws]);
const geluGrad = tf.grad((v: tf.Tensor) => tf.sum(tf.square(gelu(v))))(a);
const lnW = tf.linspace(0.5, 1.5, 128);
const lnB = tf.linspace(-0.2, 0.2, 128);
const lnGrads = tf.grads((v: tf.Tensor, lw: tf.Tensor, lb: tf.Tensor) => tf.sum(tf.square(layerNorm(v, lw, lb))))([a, lnW, lnB]);
// our products (matmul.wat), cut in chunks over the helpers: rows a multiple of 4 and not, with a bias, and a^T b with column sums
const odd = tf.tensor(Float32Array.from({ length: 257 * 128 }, (_, i) => Math.sin(i * 0.13)), [257, 128]);
const bias = tf.linspace(-1, 1, 128);
const [a2, w2, odd2] = [a, w, odd] as tf.Tensor2D[];
// and a b^T with an odd N and a ReLU, and the ReLU's gradient (elementwise, cut in fours)
const w127 = tf.slice(w2!, [0, 0], [127, 128]) as tf.Tensor2D;
const ours = [matMulAB(a2!, w2!, bias as tf.Tensor1D), matMulAB(odd2!, w2!), matMulABT(odd2!, w2!, bias as tf.Tensor1D), ...matMulTA(a2!, tf.slice(a2!, [0, 0], [841, 64]), true),
  matMulABT(a2!, w127, tf.slice(bias, 0, 127) as tf.Tensor1D, true), reluGrad(tf.cos(a), a),
  // a^T b past its tiles: 125 rows (the last chunk ends in one row alone) and 21 columns (5 after the tiles)
  ...matMulTA(tf.slice(a2!, [0, 0], [841, 125]) as tf.Tensor2D, tf.slice(a2!, [0, 3], [841, 21]) as tf.Tensor2D, true)];
const out = [...ours, tf.matMul(a, w), tf.matMul(small, w), ...g, spectralMix(x, ws), ...mixGrads, gelu(a), geluGrad, layerNorm(a, lnW, lnB), ...lnGrads].map((t) => Array.from(t.dataSync()));
console.log(JSON.stringify({ reason: report.attempts.at(-1)!.reason, helped: helperChunks(be), out }));
