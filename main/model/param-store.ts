// Every model kind's parameters: creates its tf.Variables under globally unique tfjs names (so two models can live in
// one process) while keying them by the release's state_dict names.
import * as tf from '../ops/tf';
import { seededRandom, uniformFanIn } from '../ops/init';

let instanceCounter = 0;

export class ParamStore {
  readonly vars = new Map<string, tf.Variable>();
  readonly prefix: string;
  private readonly rand: () => number;

  constructor(kind: string, seed: number) {
    // The counter keeps names unique in this module; the random part, across copies of it that share
    // one tfjs engine (a bundle and its worker): WebCrypto, in Node and in a browser alike.
    this.prefix = `${kind}#${++instanceCounter}.${globalThis.crypto.randomUUID().slice(0, 8)}/`;
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

  /** scale * torch.rand: uniform in [0, scale) (e.g. FNO's spectral weights). */
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
