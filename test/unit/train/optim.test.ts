// AdamW, global-norm clipping and StepLR against numbers PyTorch computed (tools/train_reference.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { AdamW } from '../../../main/train/adamw';
import { clipCoef, flatNorm } from '../../../main/train/clip';
import { concatFlat } from '../../../main/ops/concat-flat';
import { StepLR } from '../../../main/train/schedule';

const fx = JSON.parse(readFileSync(new URL('../../fixtures/train/optim.json', import.meta.url), 'utf8'));

function close(actual: ArrayLike<number>, expected: number[], tol: number, what: string) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(actual[i]! - expected[i]!);
    assert.ok(d <= tol * (1 + Math.abs(expected[i]!)), `${what}[${i}]: ${actual[i]} vs PyTorch ${expected[i]} (|d| = ${d})`);
  }
}

// device on cpu: the tensor-op path GPU backends take; on wasm: the same path with the update as one
// kernel of our own in place on the flat tensors (ops/adamw-heap.ts), clip coefficient inside it
for (const [name, device, backend] of [['clipped', false, 'cpu'], ['unclipped', false, 'cpu'], ['clipped', true, 'cpu'], ['unclipped', true, 'cpu'], ['clipped', true, 'wasm'], ['unclipped', true, 'wasm']] as const) {
  test(`AdamW + clip + StepLR replay PyTorch step by step (${name}, ${device ? 'device' : 'host'} path on ${backend})`, async () => {
    assert.ok(await tf.setBackend(backend));
    const sc = fx[name];
    const before = tf.memory().numTensors;
    const vars = new Map<string, tf.Variable>();
    for (const k of Object.keys(sc.shapes)) vars.set(k, tf.tidy(() => tf.variable(tf.tensor(sc.init[k], sc.shapes[k]), true, `t-${name}-${device}-${k}`)));
    const opt = new AdamW(vars, { lr: sc.lr, weightDecay: sc.weightDecay }, { device });
    assert.equal(opt.device, device);
    let heapSteps = 0;
    const sched = new StepLR(sc.lr, { stepSize: sc.stepSize, gamma: sc.gamma });
    let epoch = 0;
    let clippedSteps = 0;
    for (const [i, st] of sc.steps.entries()) {
      while (epoch < st.epoch) {
        sched.step();
        epoch++;
      }
      assert.equal(sched.lr, st.lr, `step ${i}: learning rate`);
      const grads = new Map<string, tf.Tensor>();
      for (const k of vars.keys()) grads.set(k, tf.tensor(st.grads[k], sc.shapes[k]));
      // clipped as the trainer clips (Trainer's step): one flat gradient in the optimizer's key order,
      // flatNorm on the backend, clipCoef, then the device path's multiply or the host path's float32 one
      const flat = concatFlat(opt.keys.map((k) => grads.get(k)!));
      const normT = flatNorm(flat);
      const norm = (await normT.data())[0]!;
      close([norm], [st.normBeforeClip], 1e-6, `step ${i}: norm before clipping`);
      const coef = clipCoef(norm, sc.maxNorm);
      if (coef < 1) clippedSteps++;
      if (backend === 'wasm') {
        const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName?: string }): unknown };
        const orig = engine.runKernelFunc;
        engine.runKernelFunc = function (this: unknown, p: { kernelName?: string }) { if (p.kernelName === 'LinoAdamW') heapSteps++; return orig.call(this, p); };
        try {
          await opt.applyFlat(flat, sched.lr, coef);
        } finally {
          engine.runKernelFunc = orig;
        }
      } else if (device) {
        const clipped = coef < 1 ? tf.mul(flat, coef) : flat;
        await opt.applyFlat(clipped, sched.lr);
        if (clipped !== flat) clipped.dispose();
      } else {
        const g = await flat.data() as Float32Array;
        if (coef < 1) for (let j = 0; j < g.length; j++) g[j] = Math.fround(g[j]! * coef);
        await opt.applyFlat(g, sched.lr);
      }
      tf.dispose([flat, normT, ...grads.values()]);
      for (const [k, v] of vars) close(v.dataSync(), st.params[k], 2e-6, `step ${i}: ${k}`);
    }
    if (backend === 'wasm') assert.equal(heapSteps, sc.steps.length, 'every step ran our heap kernel');
    if (name === 'clipped') assert.equal(clippedSteps, sc.steps.length, 'every step of this scenario clips');
    else assert.equal(clippedSteps, 0, 'no step of this scenario clips');
    opt.dispose();
    for (const v of vars.values()) v.dispose();
    assert.equal(tf.memory().numTensors, before, 'no tensor leaks');
  });
}

for (const [from, to] of [[false, false], [true, false], [false, true]] as const) test(`AdamW state round-trips (moments and step) and continues identically (${from ? 'device' : 'host'} to ${to ? 'device' : 'host'})`, async () => {
  await tf.setBackend('cpu');
  const mk = () => new Map([['w', tf.variable(tf.tensor([0.5, -1, 2]), true)]]);
  const a = mk();
  const b = mk();
  const oa = new AdamW(a, { lr: 0.1, weightDecay: 0.1 }, { device: from });
  const g = () => new Map([['w', tf.tensor([0.3, -0.2, 0.7])]]);
  for (let i = 0; i < 3; i++) await oa.apply(g(), 0.1);
  const ob = new AdamW(b, { lr: 0.1, weightDecay: 0.1 }, { device: to });
  b.get('w')!.assign(a.get('w')!);
  ob.setState(await oa.getState());
  await oa.apply(g(), 0.05);
  await ob.apply(g(), 0.05);
  const [wa, wb] = [[...a.get('w')!.dataSync()], [...b.get('w')!.dataSync()]];
  if (from === to) assert.deepEqual(wb, wa);
  else wa.forEach((v, i) => assert.ok(Math.abs(v - wb[i]!) <= 1e-6 * (1 + Math.abs(v)), `w[${i}]: ${wb[i]} vs ${v}`));
  assert.equal(ob.step, 4);
});

test('StepLR(5, 0.96) matches PyTorch over 500 epochs exactly', () => {
  const f = fx.paperStepLR;
  const s = new StepLR(f.lr, { stepSize: f.stepSize, gamma: f.gamma });
  const lrs: number[] = [];
  for (let e = 0; e < 500; e++) {
    lrs.push(s.lr);
    s.step();
  }
  assert.deepEqual(lrs, f.lrs);
});

test('a parameter without a gradient is left alone (PyTorch grad None), on the host and the device path (cpu, and wasm: a step on our heap kernel, then the masked one)', async () => {
  const out: number[][][] = [];
  for (const [device, backend] of [[false, 'cpu'], [true, 'cpu'], [true, 'wasm']] as const) {
    assert.ok(await tf.setBackend(backend));
    const vars = new Map([['a', tf.variable(tf.tensor([0.5, -1]), true)], ['b', tf.variable(tf.tensor([2, 3, 4]), true)]]);
    const opt = new AdamW(vars, { lr: 0.1, weightDecay: 0.1 }, { device });
    await opt.apply(new Map([['a', tf.tensor([0.3, -0.2])], ['b', tf.tensor([1, 1, 1])]]));
    await opt.apply(new Map([['a', tf.tensor([0.1, 0.4])]]));
    const b = [...vars.get('b')!.dataSync()];
    const st = await opt.getState();
    out.push([[...vars.get('a')!.dataSync()], b, [...st.expAvg.get('b')!.data]]);
    assert.equal(opt.step, 2);
  }
  const [host, ...devs] = out as [number[][], number[][], number[][]];
  for (const dev of devs) dev.forEach((row, r) => row.forEach((v, i) => assert.ok(Math.abs(v - host[r]![i]!) <= 1e-6 * (1 + Math.abs(v)), `row ${r}[${i}]: device ${v} vs host ${host[r]![i]}`)));
  // b moved once (step 1) and kept its moments through step 2
  assert.deepEqual(host[2]!.map((v) => Math.fround(v)), [0.1, 0.1, 0.1].map((v) => Math.fround(v)));
});

test('device AdamW keeps the parameters flat between steps and rereads them after an outside assign (same as the host path; on wasm too)', async () => {
  const engine = () => tf.engine() as unknown as { runKernelFunc(p: { kernelName?: string }): unknown };
  const out: number[][] = [];
  let kernels: string[] = [];
  let onHeap: string[] = [];
  for (const [device, backend] of [[false, 'cpu'], [true, 'cpu'], [true, 'wasm']] as const) {
    assert.ok(await tf.setBackend(backend));
    const vars = new Map<string, tf.Variable>([['a', tf.variable(tf.tensor2d([[0.5, -1], [2, 0.25]]), true)], ['b', tf.variable(tf.tensor1d([2, 3, 4]), true)]]);
    const opt = new AdamW(vars, { lr: 0.1, weightDecay: 0.1 }, { device });
    const flat = () => tf.tensor1d([0.3, -0.2, 0.1, 0.4, 1, -1, 0.5]);
    const step = async (count: boolean) => {
      const g = flat();
      const e = engine();
      const orig = e.runKernelFunc;
      const names: string[] = [];
      if (count) e.runKernelFunc = function (this: unknown, p: { kernelName?: string }) { if (p.kernelName) names.push(p.kernelName); return orig.call(this, p); };
      try {
        await opt.applyFlat(device ? g : ((await g.data()) as Float32Array));
      } finally {
        e.runKernelFunc = orig;
        g.dispose();
      }
      return names;
    };
    await step(false);
    const second = await step(true);
    if (device && backend === 'cpu') kernels = second;
    if (backend === 'wasm') onHeap = second;
    // weights loaded from elsewhere (a checkpoint, an import): the next step starts from them
    vars.get('a')!.assign(tf.tensor2d([[1, 2], [3, 4]]));
    await step(false);
    await step(false);
    out.push([...vars.get('a')!.dataSync(), ...vars.get('b')!.dataSync()]);
    opt.dispose();
    for (const v of vars.values()) v.dispose();
  }
  const [host, dev, heap] = out as [number[], number[], number[]];
  dev.forEach((v, i) => assert.ok(Math.abs(v - host[i]!) <= 1e-6 * (1 + Math.abs(v)), `[${i}]: device ${v} vs host ${host[i]}`));
  heap.forEach((v, i) => assert.ok(Math.abs(v - host[i]!) <= 1e-6 * (1 + Math.abs(v)), `[${i}]: wasm heap ${v} vs host ${host[i]}`));
  // wasm: one update kernel and one write-back, on the flat parameters kept from the step before
  assert.deepEqual(onHeap, ['LinoAdamW', 'LinoSplitFlat'], onHeap.join(', '));
  // the second step reuses the flat parameters (no concat, no reshape) and writes them back in one kernel
  assert.deepEqual(kernels.filter((k) => ['Concat', 'LinoConcatFlat', 'Reshape', 'SplitV'].includes(k)), [], kernels.join(', '));
  assert.equal(kernels.filter((k) => k === 'LinoSplitFlat').length, 1, kernels.join(', '));
});

test('on wasm AdamW takes the device path with our heap kernel by default, on cpu the host path', async () => {
  for (const [backend, device] of [['wasm', true], ['cpu', false]] as const) {
    assert.ok(await tf.setBackend(backend));
    const vars = new Map([['a', tf.variable(tf.ones([3]))]]);
    const opt = new AdamW(vars);
    assert.equal(opt.device, device, backend);
    opt.dispose();
    vars.get('a')!.dispose();
  }
});
