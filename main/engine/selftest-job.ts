// A real tensor workload on the active backend: proves the engine process computes,
// reports progress and honours cancellation. Used by the UI's engine panel and the tests.
import { tf } from './tf-runtime';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';
import { SELFTEST_MAX_SYNC_MS } from '../api/contract';

export async function runSelfTest(params: JobParams['selftest'], ctx: JobContext) {
  const steps = Math.min(10_000, Math.max(1, Number(params.steps ?? 20)));
  const size = Math.min(1024, Math.max(2, Number(params.size ?? 128)));
  // Optional synchronous stretch per step: stands in for a long kernel that cannot look at the
  // cancel flag, which is what the host's kill-after-grace path exists for. The contract refuses
  // more than SELFTEST_MAX_SYNC_MS; the clamp keeps a direct caller of the engine to it as well.
  const syncMs = Math.min(SELFTEST_MAX_SYNC_MS, Math.max(0, Number(params.syncMs ?? 0) || 0));
  const t0 = performance.now();
  // Power iteration on a fixed positive semi-definite matrix: the answer (its largest eigenvalue) is checkable.
  const a = tf.tidy(() => {
    const m = tf.randomUniform([size, size], -1, 1, 'float32', 7);
    return tf.matMul(m, m.transpose()).div(size);
  });
  let v = tf.ones([size, 1]).div(Math.sqrt(size));
  let lambda = 0;
  try {
    for (let i = 0; i < steps; i++) {
      if (ctx.signal.aborted) throw new Error('cancelled');
      for (const until = performance.now() + syncMs; performance.now() < until; );
      const next = tf.tidy(() => {
        const w = tf.matMul(a, v);
        return w.div(tf.norm(w));
      });
      v.dispose();
      v = next;
      lambda = (await tf.tidy(() => tf.matMul(tf.matMul(v.transpose(), a), v)).data())[0];
      ctx.progress((i + 1) / steps, `step ${i + 1}/${steps}`);
      // Yield so cancel messages are handled between steps.
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    a.dispose();
    v.dispose();
  }
  return { backend: tf.getBackend(), steps, size, rayleighQuotient: lambda, ms: performance.now() - t0 };
}
