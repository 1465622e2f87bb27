// Shared by the parity tests: loads a committed fixture case (test/fixtures/parity/) and compares
// against it; checkParityCases runs every case on the current backend (parity and webgpu-parity).
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../main/ops/tf';
import { LinoOperator } from '../../main/model/lino/operator';
import { readScalars } from '../../main/model/lino/params';
import { readSafetensorsFile, toFloat32 } from '../../main/runs/safetensors';
import { loadWeights } from '../../main/runs/state-dict';

export const FIXTURES = new URL('../fixtures/parity/', import.meta.url).pathname;

export interface Case { name: string; config: Record<string, unknown> }

export function listCases(): Case[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')).cases;
}

export function relErr(ours: Float32Array | number[], ref: Float32Array): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = ours[i]! - ref[i]!;
    num += d * d;
    den += ref[i]! * ref[i]!;
  }
  return Math.sqrt(num) / Math.max(Math.sqrt(den), 1e-30);
}

export interface CaseResult { forward: number; alpha: number; grads: Map<string, number> }

/** Async reads throughout, so the same helper runs on webgpu (no synchronous reads in Node). */
export async function runCase(c: Case): Promise<CaseResult> {
  const model = new LinoOperator(c.config);
  try {
    loadWeights(model, join(FIXTURES, `${c.name}.weights.safetensors`));
    const io = readSafetensorsFile(join(FIXTURES, `${c.name}.io.safetensors`)).tensors;
    const t = (k: string) => tf.tensor(toFloat32(io.get(k)!), io.get(k)!.shape);
    const x = t('x');
    const w = t('loss_weight');
    await readScalars(model.variables.values());
    const { y, diagnostics } = model.forward(x, { diagnostics: true });
    const forward = relErr((await y.data()) as Float32Array, toFloat32(io.get('y')!));
    let alpha = 0;
    for (const [i, d] of diagnostics!.entries()) {
      alpha = Math.max(alpha, relErr((await d.alpha.data()) as Float32Array, toFloat32(io.get(`alpha.${i}`)!)));
      d.alpha.dispose();
    }
    y.dispose();
    const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(model.forward(x).y, w)) as tf.Scalar, [...model.variables.values()]);
    value.dispose();
    const out = new Map<string, number>();
    for (const [k, v] of model.variables) {
      const g = grads[v.name];
      if (!g) throw new Error(`no gradient for ${k}`);
      out.set(k, relErr((await g.data()) as Float32Array, toFloat32(io.get(`grad.${k}`)!)));
    }
    tf.dispose(Object.values(grads));
    tf.dispose([x, w]);
    return { forward, alpha, grads: out };
  } finally {
    model.dispose();
  }
}

/**
 * Every committed case on the backend set now, each a subtest: forward and gate weights <= 1e-5,
 * the gradient of every parameter <= 1e-4, no tensor left behind.
 */
export async function checkParityCases(t: TestContext): Promise<void> {
  const cases = listCases();
  assert.equal(cases.length, 14);
  for (const c of cases) {
    await t.test(c.name, async () => {
      const before = tf.memory().numTensors;
      const r = await runCase(c);
      assert.ok(r.forward <= 1e-5, `${c.name}: forward rel. error ${r.forward}`);
      assert.ok(r.alpha <= 1e-5, `${c.name}: alpha rel. error ${r.alpha}`);
      assert.ok(r.grads.size > 0);
      for (const [k, e] of r.grads) assert.ok(e <= 1e-4, `${c.name}: gradient of ${k} rel. error ${e}`);
      assert.equal(tf.memory().numTensors, before, 'tensors leaked');
    });
  }
}
