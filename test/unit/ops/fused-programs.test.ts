// The fused WGSL programs, structurally (SwiftShader here: nothing is timed):
// - the guard: at shapes of at least 10^6 elements, every fused program dispatches enough threads
//   that none walks more than MAX_SERIAL_WALK (4,096) input elements serially: (dispatched
//   workgroups x workgroup size) x 4,096 >= the elements the program reads (its declared `work`,
//   written next to its WGSL). A serial reduction fails it: one thread per output walking a whole
//   sample or column (the old mix d-alpha: 12 threads for 12 x 924,800 products at Darcy 85^2)
//   dispatches one workgroup for millions of elements; the last test builds that program and
//   shows the check rejects it;
// - names: each program is its own class, the name tfjs's profiler prints (tf.time);
// - shapes as uniforms: a second batch size and grid compile no new pipeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { FusedProgram, LinoSumPartialsProgram, MAX_SERIAL_WALK } from '../../../main/ops/kernel-registry';
import * as householderOps from '../../../main/ops/householder';
import * as layerNormOps from '../../../main/ops/layer-norm';
import * as geluOps from '../../../main/ops/gelu';
import * as mixOps from '../../../main/ops/mix';
import * as positiveFeatureOps from '../../../main/ops/positive-feature';
import * as scatteringOps from '../../../main/ops/scattering-output';
import * as depthwiseOps from '../../../main/ops/depthwise-conv';
import { webgpuUnavailable } from '../../helpers/webgpu-env';

const skip = await webgpuUnavailable();

/** Every program class the op modules export (a new fused op adds its module here). */
const PROGRAM_CLASSES = [householderOps, layerNormOps, geluOps, mixOps, positiveFeatureOps, scatteringOps, depthwiseOps]
  .flatMap((m) => Object.values(m))
  .filter((v): v is typeof FusedProgram => typeof v === 'function' && v.prototype instanceof FusedProgram)
  .concat([LinoSumPartialsProgram]);

interface Seen { name: string; key: string; work: number; threads: number; outputSize: number }

/** Threads a program dispatches (after tfjs reshaped its dispatch to the device's limits). */
function threadsOf(p: FusedProgram): number {
  return p.dispatch.reduce((a, b) => a * b, 1) * p.workgroupSize.reduce((a, b) => a * b, 1);
}

/** The guard: elements read per dispatched thread, at most MAX_SERIAL_WALK. */
function walkPerThread(p: FusedProgram): number {
  return p.work / threadsOf(p);
}

/** Runs f on webgpu and records the fused programs it dispatches (tfjs fills in the full shader key). */
async function record(f: () => void): Promise<Seen[]> {
  const be = tf.backend() as unknown as { runWebGPUProgram: (p: object, ...a: unknown[]) => tf.TensorInfo };
  const orig = be.runWebGPUProgram;
  const seen: Seen[] = [];
  be.runWebGPUProgram = function (this: unknown, p: object, ...a: unknown[]) {
    const out = orig.call(this, p, ...a);
    if (p instanceof FusedProgram) seen.push({ name: p.constructor.name, key: p.shaderKey, work: p.work, threads: threadsOf(p), outputSize: p.outputShape[0]! });
    return out;
  };
  try {
    f();
    const z = tf.scalar(0);
    await z.data(); // flush the queue
    z.dispose();
  } finally {
    be.runWebGPUProgram = orig;
  }
  return seen;
}

const seeded = (shape: number[], seed: number) => tf.randomUniform(shape, 0.1, 1, 'float32', seed);

/** Forward and backward of every fused op: rows R = B*N of width M; a B x H x W grid for the depthwise conv. */
function everyOp(B: number, N: number, M: number, grid: [number, number]): void {
  tf.tidy(() => {
    const R = B * N;
    const [h, v, y] = [seeded([R, M], 1), seeded([R, M], 2), seeded([R, M], 3)];
    const c = seeded([N, M], 4);
    const alpha = tf.softmax(seeded([B, 3], 5)) as tf.Tensor2D;
    const dw = seeded([M, 1, 3, 3], 6);
    const img = seeded([B, ...grid, M], 7);
    const loss = (...xs: tf.Tensor[]) => {
      const [hh, vv, yy, cc, aa, ii] = xs as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D, tf.Tensor2D, tf.Tensor2D, tf.Tensor];
      const hr = householderOps.householder(hh, vv, -2);
      const ln = layerNormOps.layerNorm(hr, tf.ones([M]), tf.zeros([M]));
      const ge = geluOps.gelu(ln);
      const phi = positiveFeatureOps.positiveFeature(ge as tf.Tensor2D, cc, 0.5);
      const so = scatteringOps.scatteringOutput(phi, tf.sum(phi, -1, true), yy, hh, tf.scalar(0.3), tf.scalar(0.1));
      const mixed = mixOps.mixRows(aa, [so, ge, yy]);
      const conv = depthwiseOps.depthwiseConv(ii, dw);
      return tf.add(tf.sum(mixed), tf.sum(conv)) as tf.Scalar;
    };
    tf.grads(loss)([h, v, y, c, alpha, img]);
  });
}

test('every fused program dispatches enough threads that none walks more than 4,096 elements (10^6-element shapes)', { skip: skip ?? false, timeout: 600_000 }, async () => {
  assert.ok(await tf.setBackend('webgpu'));
  try {
    // rows: 4 x 8,192 points x 32 channels = 1,048,576 elements; grid 4 x 128 x 64 x 32 the same
    const seen = await record(() => everyOp(4, 8192, 32, [128, 64]));
    const names = new Set(seen.map((s) => s.name));
    for (const P of PROGRAM_CLASSES) assert.ok(names.has(P.name), `${P.name} did not run: the guard must see every fused program`);
    for (const s of seen) {
      const walk = s.work / s.threads;
      assert.ok(walk <= MAX_SERIAL_WALK, `${s.name}: ${s.work} elements over ${s.threads} threads = ${walk.toFixed(0)} per thread (at most ${MAX_SERIAL_WALK})`);
    }
    // the work is declared, not measured: the big reductions must at least declare the elements they sum
    const mixDa = seen.find((s) => s.name === 'LinoMixGradAlphaProgram')!;
    assert.ok(mixDa.work >= 2 * 4 * 8192 * 32 * 3, `LinoMixGradAlphaProgram declares ${mixDa.work} elements`);
  } finally {
    await tf.setBackend('cpu');
  }
});

test('fused programs are named classes, and a second batch size and grid reuse their pipelines', { skip: skip ?? false, timeout: 300_000 }, async () => {
  assert.ok(await tf.setBackend('webgpu'));
  try {
    const cache = (tf.backend() as unknown as { pipelineCache: Record<string, unknown> }).pipelineCache;
    const fusedPipelines = () => Object.keys(cache).filter((k) => PROGRAM_CLASSES.some((P) => k.startsWith(`${P.name}_`))).sort();
    const a = await record(() => everyOp(2, 96, 8, [12, 10]));
    const before = fusedPipelines();
    const b = await record(() => everyOp(3, 80, 8, [9, 14]));
    for (const s of a) assert.notEqual(s.name, 'Object', 'a fused program without a class of its own');
    const keys = (xs: Seen[]) => [...new Set(xs.map((s) => s.key))].sort();
    assert.deepEqual(keys(b), keys(a), 'the fused programs\' shader keys differ between the two shapes');
    assert.deepEqual(fusedPipelines(), before, 'the second shape compiled new fused pipelines');
  } finally {
    await tf.setBackend('cpu');
  }
});

test('the guard rejects a serial reduction: one thread per (sample, branch) walking the sample', () => {
  // the mix d-alpha of before: B*K = 12 threads, each summing N*M = 924,800 products (Darcy 85^2, M128)
  const [B, K, per] = [4, 3, 924_800];
  const serial = new mixOps.LinoMixGradAlphaProgram({
    variableNames: ['G', 'Alpha', 'B0', 'B1', 'B2'], outputShape: [B, K], threads: B * K, work: 2 * B * K * per, sizes: { per },
    body: 'var acc = 0.0; for (var i = 0; i < uniforms.per; i++) { acc += G[i] * B0[i]; } result[index] = acc;',
  });
  assert.ok(walkPerThread(serial) > MAX_SERIAL_WALK, `the serial program walks ${walkPerThread(serial)} per thread`);
  // and a plain elementwise program passes at any size
  const elementwise = new mixOps.LinoMixGradBranchProgram({ variableNames: ['G'], outputShape: [B * per], threads: B * per, body: 'result[index] = G[index];' });
  assert.equal(walkPerThread(elementwise) <= 1, true);
});
