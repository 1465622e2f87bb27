// main/train/adamw-host.ts: the host AdamW's arrays in one WebAssembly memory. Its update matches
// the float64 formula to float32 precision on sizes with and without a four-wide tail (PyTorch's own
// numbers: optim.test.ts), leaves the padding between parameters alone, and more values than wasm32
// can address are refused before anything is allocated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostAdamWArrays } from '../../../main/train/adamw-host';

test('the host AdamW kernel matches the float64 update on sizes 1, 3, 4, 10 and 67 over 20 steps, on the gradient times the clip coefficient (float32, as torch)', () => {
  const sizes = [1, 3, 4, 10, 67];
  const a = new HostAdamWArrays(sizes);
  const [b1, b2, eps, lr, wd] = [0.9, 0.999, 1e-8, 1e-3, 1e-2];
  const ref = sizes.map((n, i) => ({ p: Array.from({ length: n }, (_, j) => Math.sin(i + j)), m: new Array<number>(n).fill(0), v: new Array<number>(n).fill(0) }));
  ref.forEach((r, i) => a.p[i]!.set(r.p));
  for (let t = 1; t <= 20; t++) {
    const s = { decay: 1 - lr * wd, beta1: b1, beta2: b2, eps, stepSize: lr / (1 - b1 ** t), sbc2: Math.sqrt(1 - b2 ** t), gradScale: t % 3 === 0 ? 0.37 : 1 };
    sizes.forEach((n, i) => {
      const g = Float32Array.from({ length: n }, (_, j) => Math.cos(t * 1.3 + j * 0.7 + i));
      a.update(i, g, s);
      const r = ref[i]!;
      for (let j = 0; j < n; j++) g[j] = Math.fround(g[j]! * s.gradScale);
      for (let j = 0; j < n; j++) {
        r.m[j] = b1 * r.m[j]! + (1 - b1) * g[j]!;
        r.v[j] = b2 * r.v[j]! + (1 - b2) * g[j]! * g[j]!;
        r.p[j] = r.p[j]! * s.decay - (s.stepSize * r.m[j]!) / (Math.sqrt(r.v[j]!) / s.sbc2 + eps);
      }
    });
  }
  sizes.forEach((n, i) => {
    for (let j = 0; j < n; j++) {
      for (const [name, got, want] of [['p', a.p, ref[i]!.p], ['m', a.m, ref[i]!.m], ['v', a.v, ref[i]!.v]] as const) {
        const d = Math.abs(got[i]![j]! - want[j]!);
        assert.ok(d <= 2e-6 * (1e-3 + Math.abs(want[j]!)), `size ${n}, ${name}[${j}]: ${got[i]![j]} vs ${want[j]}`);
      }
    }
  });
  // the parameter of size 1 is padded to 4 values: the three after it belong to nobody and stay 0
  const after = new Float32Array(a.p[0]!.buffer, a.p[0]!.byteOffset + 4, 3);
  assert.deepEqual(Array.from(after), [0, 0, 0]);
});

test('more parameter values than wasm32 addresses are refused with the count, before allocating', () => {
  assert.throws(() => new HostAdamWArrays([2 ** 27, 2 ** 27 + 1]), /AdamW: 268435460 parameter values are more than the host optimizer holds \(268435456/);
});
