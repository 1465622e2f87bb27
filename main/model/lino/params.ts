// Creates the model's tf.Variables under globally unique tfjs names (so two models can live in
// one process) while keying them by the release's state_dict names.
import * as tf from '../../ops/tf';
import { seededRandom, uniformFanIn } from '../../ops/init';

let instanceCounter = 0;

export class ParamStore {
  readonly vars = new Map<string, tf.Variable>();
  readonly prefix: string;
  private readonly rand: () => number;

  constructor(kind: string, seed: number) {
    this.prefix = `${kind}#${++instanceCounter}.${Math.random().toString(36).slice(2, 8)}/`;
    this.rand = seededRandom(seed);
  }

  private add(key: string, shape: number[], values: Float32Array): tf.Variable {
    if (this.vars.has(key)) throw new Error(`duplicate parameter ${key}`);
    const init = tf.tensor(values, shape, 'float32');
    const v = tf.variable(init, true, this.prefix + key, 'float32');
    init.dispose(); // the variable holds its own reference to the data
    this.vars.set(key, v);
    return v;
  }

  /** PyTorch default init: uniform(+-1/sqrt(fanIn)). */
  uniform(key: string, shape: number[], fanIn: number): tf.Variable {
    const size = shape.reduce((a, b) => a * b, 1);
    return this.add(key, shape, uniformFanIn(this.rand, size, fanIn));
  }

  /** scale * torch.rand: uniform in [0, scale) (FNO's spectral weights). */
  scaledRand(key: string, shape: number[], scale: number): tf.Variable {
    const size = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(size);
    for (let i = 0; i < size; i++) values[i] = scale * this.rand();
    return this.add(key, shape, values);
  }

  constant(key: string, shape: number[], value: number): tf.Variable {
    const size = shape.reduce((a, b) => a * b, 1);
    return this.add(key, shape, new Float32Array(size).fill(value));
  }

  /** nn.Linear(inF, outF, bias): weight [out, in] (+ bias [out]). */
  affine(prefix: string, inF: number, outF: number, bias = true): { weight: tf.Variable; bias?: tf.Variable } {
    const weight = this.uniform(`${prefix}.weight`, [outF, inF], inF);
    return bias ? { weight, bias: this.uniform(`${prefix}.bias`, [outF], inF) } : { weight };
  }
}

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
