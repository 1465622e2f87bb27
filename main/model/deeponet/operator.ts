// DeepONet (unstacked, Lu et al. 2021) in the NeuralOperator contract: the branch net maps the
// input sampled on the grid (flattened, every channel) to basis coefficients, the trunk net maps
// each grid point's normalized coordinate to basis functions, and y_c = sum_k b_{c,k} t_{c,k} + bias_c.
// ReLU after every hidden layer and on the trunk's output (DeepXDE's DeepONet; see
// scaleout/deeponet_ref.py). Everything is a 2-D matMul, so it is kernel-lean on every backend.
// Variables carry the reference's state_dict names (branch.layers.<i>.weight, trunk..., bias).
import * as tf from '../../ops/tf';
import type { ForwardResult, NeuralOperator } from '../types';
import { linear, linearRelu } from '../../ops/linear';
import { ensureFastWasmKernels } from '../../ops/tfjs-internals/wasm-kernels';
import { ParamStore } from '../param-store';
import { countParams, gridInput } from '../operator-input';
import { gridPoints, parseDeepOnetConfig, type DeepOnetConfig } from './config';
import { trunkCoords } from './trunk-coords';

type Affine = { weight: tf.Variable; bias?: tf.Variable };

function mlp(store: ParamStore, prefix: string, sizes: number[]): Affine[] {
  return sizes.slice(1).map((out, i) => store.affine(`${prefix}.layers.${i}`, sizes[i]!, out));
}

/** Linear layers with ReLU after all but the last (after the last too when `reluLast`); h: [rows, features]. */
function runMlp(layers: Affine[], h: tf.Tensor, reluLast: boolean): tf.Tensor {
  layers.forEach((l, i) => {
    h = i < layers.length - 1 || reluLast ? linearRelu(h, l.weight, l.bias!) : linear(h, l.weight, l.bias);
  });
  return h;
}

export class DeepOnetOperator implements NeuralOperator {
  readonly kind = 'deeponet';
  readonly config: DeepOnetConfig & Record<string, unknown>;
  readonly variables: ReadonlyMap<string, tf.Variable>;
  private readonly branch: Affine[];
  private readonly trunk: Affine[];
  private readonly bias: tf.Variable;
  private coords: tf.Tensor2D | null = null;

  constructor(config: unknown) {
    const c = parseDeepOnetConfig(config);
    this.config = { ...c };
    const store = new ParamStore('deeponet', c.seed ?? 42);
    const hidden = new Array<number>(c.layers - 1).fill(c.width);
    const out = c.basis * c.outChannels;
    this.branch = mlp(store, 'branch', [gridPoints(c.grid) * c.inChannels, ...hidden, out]);
    this.trunk = mlp(store, 'trunk', [c.dims, ...hidden, out]);
    this.bias = store.constant('bias', [c.outChannels], 0);
    this.variables = store.vars;
  }

  /** x: [B, N, C_in] or [B, H, W, C_in] on the config's grid -> y: [B, ..., C_out]. */
  forward(x: tf.Tensor): ForwardResult {
    const c = this.config;
    const { B, grid, N } = gridInput('deeponet', x, c.dims, c.inChannels, c.grid.join(', '));
    if (grid.some((g, i) => g !== c.grid[i])) {
      // the branch's first layer is as wide as the grid: another resolution is another model
      throw new Error(`deeponet forward: field 'grid': the model was built for grid ${c.grid.join('x')}, the input is ${grid.join('x')}; DeepONet's branch takes every grid point, so it does not transfer to another resolution (evaluate it at ${c.grid.join('x')})`);
    }
    ensureFastWasmKernels();
    const P = c.basis;
    // kept: a forward called inside the caller's tidy must not dispose the cached coordinates
    if (!this.coords) this.coords = tf.keep(tf.tensor2d(trunkCoords(c.grid), [N, c.dims]));
    const coords = this.coords;
    const y = tf.tidy(() => {
      const b = runMlp(this.branch, tf.reshape(x, [B, N * c.inChannels]), false); // [B, C*P]
      const t = runMlp(this.trunk, coords, true); // [N, C*P]
      // per output channel its own P basis functions: [B, P] x [N, P]^T -> [B, N]
      const per = [];
      for (let ch = 0; ch < c.outChannels; ch++) {
        const bc = c.outChannels === 1 ? b : tf.slice(b, [0, ch * P], [B, P]);
        const tc = c.outChannels === 1 ? t : tf.slice(t, [0, ch * P], [N, P]);
        per.push(linear(bc, tc));
      }
      const out = per.length === 1 ? tf.expandDims(per[0]!, 2) : tf.stack(per, 2); // [B, N, C]
      return tf.reshape(tf.add(out, this.bias), [B, ...grid, c.outChannels]);
    });
    return { y };
  }

  numParams(): number {
    return countParams(this.variables);
  }

  dispose(): void {
    for (const v of this.variables.values()) v.dispose();
    this.coords?.dispose();
    this.coords = null;
  }
}

export function createDeepOnet(config: unknown): DeepOnetOperator {
  return new DeepOnetOperator(config);
}
