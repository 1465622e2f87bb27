// Properties that do not depend on our reading of the spec (the parity fixtures share it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { LinoOperator } from '../../../main/model/lino/operator';
import { reflect } from '../../../main/model/lino/reflection';
import { refract } from '../../../main/model/lino/refraction';
import { ScatteringFull } from '../../../main/model/lino/scattering-full';
import { ScatteringEfficient } from '../../../main/model/lino/scattering-efficient';
import { GridConstants } from '../../../main/model/lino/constants';
import { unitNormalize } from '../../../main/ops/unit-normalize';
import { depthwiseConv } from '../../../main/ops/depthwise-conv';
import { linear } from '../../../main/ops/linear';
import { gelu } from '../../../main/ops/gelu';
import { gridCoordinates } from '../../../main/model/lino/coords';

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= tol * (1 + Math.abs(b[i]!)), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};
const arr = (t: tf.Tensor) => Array.from(t.dataSync());

test('setup: cpu backend', async () => { assert.ok(await tf.setBackend('cpu')); });

test('reflection is an involution and preserves the norm', () => tf.tidy(() => {
  const h = tf.randomNormal([50, 16], 0, 1, 'float32', 1);
  const vhat = unitNormalize(tf.randomNormal([50, 16], 0, 1, 'float32', 2));
  const r = reflect(h, vhat);
  close(arr(reflect(r, vhat)), arr(h), 1e-5, 'R(R(h))');
  close(arr(tf.norm(r, 'euclidean', -1)), arr(tf.norm(h, 'euclidean', -1)), 1e-5, '||R h||');
  // and the model's adaptive branch preserves the norm at every point
  const m = new LinoOperator({ dims: 1, inChannels: 2, outChannels: 1, width: 16, depth: 1, components: ['reflection'] });
  const ro = m.blocks[0]!.reflection!.apply(h);
  close(arr(tf.norm(ro, 'euclidean', -1)), arr(tf.norm(h, 'euclidean', -1)), 1e-5, '||R_theta h||');
  // it is not the identity
  assert.ok(tf.max(tf.abs(tf.sub(ro, h))).dataSync()[0]! > 1e-2);
  m.dispose();
}));

test('refraction scales exactly the normal component by eta and keeps the tangential one', () => tf.tidy(() => {
  const h = tf.randomNormal([40, 12], 0, 1, 'float32', 3);
  const vhat = unitNormalize(tf.randomNormal([40, 12], 0, 1, 'float32', 4));
  const eta = 1.2;
  const t = refract(h, vhat, eta);
  const nH = tf.sum(tf.mul(h, vhat), -1, true);
  const nT = tf.sum(tf.mul(t, vhat), -1, true);
  close(arr(nT), arr(tf.mul(nH, eta)), 1e-5, 'normal component');
  close(arr(tf.sub(t, tf.mul(nT, vhat))), arr(tf.sub(h, tf.mul(nH, vhat))), 1e-5, 'tangential component');
  // the model's eta = 1 + 0.25 tanh(gamma)
  const m = new LinoOperator({ dims: 1, inChannels: 2, outChannels: 1, width: 12, depth: 1, components: ['refraction'] });
  const rf = m.blocks[0]!.refraction!;
  rf.gamma.assign(tf.scalar(0.7));
  assert.ok(Math.abs(rf.etaValue() - (1 + 0.25 * Math.tanh(0.7))) < 1e-6);
  const v = unitNormalize(linear(h, rf.weight, rf.bias));
  const out = rf.apply(h);
  close(arr(tf.sum(tf.mul(out, v), -1)), arr(tf.mul(tf.sum(tf.mul(h, v), -1), rf.etaValue())), 1e-5, 'model normal component');
  m.dispose();
}));

test('full and efficient scattering weights are non-negative and rows sum to 1', () => {
  for (const grid of [[17], [5, 6]]) {
    tf.tidy(() => {
      const consts = new GridConstants();
      const M = 8;
      const N = grid.reduce((a, b) => a * b, 1);
      const h = tf.randomNormal([2, N, M], 0, 2, 'float32', 5) as tf.Tensor3D;
      const m = new LinoOperator({ dims: grid.length as 1 | 2, inChannels: 1, outChannels: 1, width: M, depth: 1, scattering: 'full', components: ['scattering'] });
      const e = new LinoOperator({ dims: grid.length as 1 | 2, inChannels: 1, outChannels: 1, width: M, depth: 1, scattering: 'efficient', components: ['scattering'] });
      const full = (m.blocks[0]!.scattering as ScatteringFull).kernel(h, grid, consts);
      const eff = (e.blocks[0]!.scattering as ScatteringEfficient).globalWeights(h, grid, consts);
      for (const [name, K] of [['full', full], ['efficient', eff]] as const) {
        assert.deepEqual(K.shape, [2, N, N]);
        assert.ok(tf.min(K).dataSync()[0]! >= 0, `${name}: negative weight`);
        close(arr(tf.sum(K, -1)), new Array(2 * N).fill(1), 1e-5, `${name} row sums`);
      }
      // positional bias: with q = k = 0 the full kernel is a Gaussian in ||p_i - p_j||^2 with tau = softplus(0) = ln 2
      const zero = tf.zeros([1, N, M]) as tf.Tensor3D;
      const K0 = arr(tf.squeeze((m.blocks[0]!.scattering as ScatteringFull).kernel(zero, grid, consts)));
      const p = gridCoordinates(grid);
      const d = grid.length;
      for (const i of [0, N - 1]) {
        const w = Array.from({ length: N }, (_, j) => {
          let s = 0;
          for (let a = 0; a < d; a++) s += (p[i * d + a]! - p[j * d + a]!) ** 2;
          return Math.exp(-Math.LN2 * s);
        });
        const tot = w.reduce((a, b) => a + b, 0);
        close(K0.slice(i * N, (i + 1) * N), w.map((x) => x / tot), 1e-5, `gaussian row ${i}`);
      }
      m.dispose();
      e.dispose();
      consts.dispose();
    });
  }
});

test('initial scalars reproduce the spec: beta=sigmoid(-1), eta=1, sigma=exp(-2), tau=softplus(0); alpha sums to 1', () => {
  for (const scattering of ['efficient', 'full'] as const) {
    const m = new LinoOperator({ dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 2, scattering });
    const x = tf.randomNormal([3, 4, 5, 3], 0, 1, 'float32', 6);
    const { y, diagnostics } = m.forward(x, { diagnostics: true });
    assert.deepEqual(y.shape, [3, 4, 5, 1]);
    assert.equal(diagnostics!.length, 2);
    for (const d of diagnostics!) {
      assert.deepEqual(d.components, ['reflection', 'refraction', 'scattering']);
      assert.deepEqual(d.alpha.shape, [3, 3]);
      close(arr(tf.sum(d.alpha, 1)), [1, 1, 1], 1e-6, 'alpha rows');
      assert.equal(d.scalars.eta, 1);
      assert.ok(Math.abs(d.scalars.sigma! - Math.exp(-2)) < 1e-7);
      if (scattering === 'efficient') {
        assert.ok(Math.abs(d.scalars.beta! - 1 / (1 + Math.E)) < 1e-7);
        assert.equal(d.scalars.tau, undefined);
      } else {
        assert.ok(Math.abs(d.scalars.tau! - Math.LN2) < 1e-7);
        assert.equal(d.scalars.beta, undefined);
      }
      d.alpha.dispose();
    }
    tf.dispose([x, y]);
    m.dispose();
  }
});

test('state_dict keys and shapes are exactly the release names; two models coexist', () => {
  const a = new LinoOperator({ dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 1, scattering: 'efficient' });
  const b = new LinoOperator({ dims: 1, inChannels: 2, outChannels: 2, width: 4, depth: 1, scattering: 'standard', components: ['refraction', 'scattering'] });
  const shapes = (m: LinoOperator) => Object.fromEntries([...m.variables].map(([k, v]) => [k, v.shape]));
  assert.deepEqual(shapes(a), {
    'lifting.linear.weight': [8, 3], 'lifting.linear.bias': [8],
    'blocks.0.norm1.weight': [8], 'blocks.0.norm1.bias': [8],
    'blocks.0.reflection.v_proj.weight': [8, 8], 'blocks.0.reflection.v_proj.bias': [8],
    'blocks.0.refraction.v_proj.weight': [8, 8], 'blocks.0.refraction.v_proj.bias': [8], 'blocks.0.refraction.refractive_param': [],
    'blocks.0.scattering.q_proj.weight': [8, 8], 'blocks.0.scattering.k_proj.weight': [8, 8], 'blocks.0.scattering.v_proj.weight': [8, 8],
    'blocks.0.scattering.coord_mlp.0.weight': [8, 2], 'blocks.0.scattering.coord_mlp.0.bias': [8],
    'blocks.0.scattering.coord_mlp.2.weight': [8, 8], 'blocks.0.scattering.coord_mlp.2.bias': [8],
    'blocks.0.scattering.local_conv.weight': [8, 1, 3, 3], 'blocks.0.scattering.local_proj.weight': [8, 8],
    'blocks.0.scattering.local_gate': [], 'blocks.0.scattering.log_sigma': [],
    'blocks.0.gate.0.weight': [16, 8], 'blocks.0.gate.0.bias': [16], 'blocks.0.gate.2.weight': [3, 16], 'blocks.0.gate.2.bias': [3],
    'blocks.0.out_proj.weight': [8, 8], 'blocks.0.out_proj.bias': [8],
    'blocks.0.norm2.weight': [8], 'blocks.0.norm2.bias': [8],
    'blocks.0.ffn.net.0.weight': [16, 8], 'blocks.0.ffn.net.0.bias': [16], 'blocks.0.ffn.net.2.weight': [8, 16], 'blocks.0.ffn.net.2.bias': [8],
    'projection.linear.weight': [1, 8], 'projection.linear.bias': [1],
  });
  const sb = shapes(b);
  assert.equal(b.config.scattering, 'full');
  assert.deepEqual(sb['blocks.0.scattering.log_tau'], []);
  assert.equal(sb['blocks.0.reflection.v_proj.weight'], undefined);
  assert.equal(sb['blocks.0.scattering.local_conv.weight'], undefined);
  assert.deepEqual(sb['blocks.0.gate.2.weight'], [2, 8]);
  // tfjs names are global: both models hold distinct variables
  const names = new Set([...a.variables.values(), ...b.variables.values()].map((v) => v.name));
  assert.equal(names.size, a.variables.size + b.variables.size);
  // initial values: PyTorch default bounds, LayerNorm 1/0
  const w = a.variables.get('blocks.0.scattering.local_conv.weight')!.dataSync();
  assert.ok(Math.max(...Array.from(w, Math.abs)) <= 1 / 3 && Math.max(...Array.from(w, Math.abs)) > 0.2);
  assert.deepEqual(Array.from(a.variables.get('blocks.0.norm1.weight')!.dataSync()), new Array(8).fill(1));
  a.dispose();
  b.dispose();
});

test('config validation names the field; at least one component; standard means full', () => {
  assert.throws(() => new LinoOperator({ dims: 3, inChannels: 1, outChannels: 1, width: 4, depth: 1 }), /field 'dims'/);
  assert.throws(() => new LinoOperator({ dims: 1, inChannels: 1, outChannels: 1, width: 4, depth: 1, components: [] }), /field 'components'/);
  assert.throws(() => new LinoOperator({ dims: 1, inChannels: 1, outChannels: 1, width: 4, depth: 1, scattering: 'fast' }), /field 'scattering'/);
  const m = new LinoOperator({ dims: 1, inChannels: 1, outChannels: 1, width: 4, depth: 1, components: ['scattering', 'reflection'] });
  assert.deepEqual(m.config.components, ['reflection', 'scattering']);
  assert.throws(() => m.forward(tf.zeros([1, 5, 2])), /lino forward: input shape \[1, 5, 2\], expected \[B, N, 1\]/);
  m.dispose();
});

test('depthwise conv custom gradient equals tfjs native gradient (cpu has the backprop kernels)', () => tf.tidy(() => {
  for (const [x, k] of [
    [tf.randomNormal([2, 7, 5, 4], 0, 1, 'float32', 7), tf.randomNormal([4, 1, 3, 3], 0, 1, 'float32', 8)],
    [tf.randomNormal([3, 9, 4], 0, 1, 'float32', 9), tf.randomNormal([4, 1, 3], 0, 1, 'float32', 10)],
  ] as const) {
    const w = tf.randomNormal([...x.shape], 0, 1, 'float32', 11);
    const native = (xx: tf.Tensor, kk: tf.Tensor) => {
      if (xx.rank === 4) return tf.depthwiseConv2d(xx as tf.Tensor4D, tf.transpose(kk, [2, 3, 0, 1]) as tf.Tensor4D, 1, 'same');
      const [B, Q, C] = xx.shape;
      const f = tf.reshape(tf.transpose(kk, [2, 0, 1]), [1, 3, C!, 1]) as tf.Tensor4D;
      return tf.reshape(tf.depthwiseConv2d(tf.reshape(xx, [B!, 1, Q!, C!]) as tf.Tensor4D, f, 1, 'same'), xx.shape);
    };
    const loss = (fn: (a: tf.Tensor, b: tf.Tensor) => tf.Tensor) => (a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(fn(a, b), w));
    close(arr(depthwiseConv(x, k)), arr(native(x, k)), 1e-5, 'forward');
    const [gx, gk] = tf.grads(loss(depthwiseConv))([x, k]);
    const [nx, nk] = tf.grads(loss(native))([x, k]);
    close(arr(gx!), arr(nx!), 1e-4, 'dx');
    close(arr(gk!), arr(nk!), 1e-4, 'dkernel');
  }
}));

test('linear and gelu match plain tfjs formulas, values and gradients', () => tf.tidy(() => {
  const x = tf.randomNormal([2, 3, 5], 0, 1, 'float32', 12);
  const W = tf.randomNormal([4, 5], 0, 1, 'float32', 13);
  const b = tf.randomNormal([4], 0, 1, 'float32', 14);
  const ref = (xx: tf.Tensor, ww: tf.Tensor, bb: tf.Tensor) => tf.add(tf.matMul(tf.reshape(xx, [6, 5]), ww, false, true), bb);
  close(arr(linear(x, W, b)), arr(ref(x, W, b)), 1e-5, 'linear');
  const g1 = tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => tf.sum(tf.sin(linear(a, c, d))))([x, W, b]);
  const g2 = tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => tf.sum(tf.sin(ref(a, c, d))))([x, W, b]);
  g1.forEach((g, i) => close(arr(g), arr(g2[i]!), 1e-5, `linear grad ${i}`));
  // GELU(x) = x Phi(x): known values
  close(arr(gelu(tf.tensor1d([-2, -0.5, 0, 1, 3]))), [-0.04550026, -0.15426877, 0, 0.8413447, 2.9959502], 1e-6, 'gelu');
}));
