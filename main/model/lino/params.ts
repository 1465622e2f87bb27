// LiNO's scalar diagnostics; the parameter store every kind shares lives in ../param-store.
import * as tf from '../../ops/tf';

export { ParamStore } from '../param-store';

// Host copies of scalar variables for the diagnostics, keyed by the variable and valid while its
// data is the one read (every optimizer step assigns new data). GPU backends cannot read
// synchronously in Node, so callers of forward({ diagnostics: true }) there run readScalars first.
const hostScalars = new WeakMap<tf.Variable, { dataId: object; value: number }>();

/** Reads every scalar variable of `vars` to the host (before a forward with diagnostics). */
export async function readScalars(vars: Iterable<tf.Variable>): Promise<void> {
  for (const v of vars) if (v.size === 1) hostScalars.set(v, { dataId: v.dataId, value: (await v.data())[0]! });
}

/** JS value of a scalar variable (diagnostics only; not on the gradient tape). */
export function scalarValue(v: tf.Variable): number {
  const h = hostScalars.get(v);
  if (h && h.dataId === v.dataId) return h.value;
  const backend = tf.getBackend();
  if (backend !== 'cpu' && backend !== 'wasm' && backend !== 'tensorflow') throw new Error(`diagnostics on backend '${backend}': call readScalars(model.variables.values()) before forward({ diagnostics: true })`);
  // eslint-disable-next-line no-restricted-syntax -- cpu, wasm and tfjs-node read synchronously by design (only webgpu/webgl cannot)
  return (v.dataSync() as Float32Array)[0]!;
}
