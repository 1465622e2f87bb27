// FNO (Li et al. 2021) in the NeuralOperator contract: fc0 lifting; Fourier layers, each a
// spectral convolution (conv<i>) plus a 1x1 convolution skip (w<i>), GELU after all but the last;
// projection fc1 -> GELU -> fc2. Variables carry the PyTorch reference's state_dict names
// (scaleout/fno_ref.py); complex weights have a trailing real/imag axis of 2.
import * as tf from '../../ops/tf';
import type { ForwardResult, NeuralOperator } from '../types';
import { linear } from '../../ops/linear';
import { gelu } from '../../ops/gelu';
import { ensureFastWasmKernels } from '../../ops/tfjs-internals/wasm-kernels';
import { ParamStore } from '../param-store';
import { countParams, gridInput } from '../operator-input';
import { parseFnoConfig, type FnoConfig } from './config';
import { spectralConv1d, spectralConv2d, spectralMats, type SpectralMats } from './spectral-conv';

interface FourierLayer {
  weights1: tf.Variable;
  weights2?: tf.Variable;
  /** Conv1d/Conv2d(width, width, 1): weight [out, in, 1(, 1)], bias [out]. */
  skip: { weight: tf.Variable; bias: tf.Variable };
}

export class FnoOperator implements NeuralOperator {
  readonly kind = 'fno';
  readonly config: FnoConfig & Record<string, unknown>;
  readonly variables: ReadonlyMap<string, tf.Variable>;
  private readonly fc0: { weight: tf.Variable; bias?: tf.Variable };
  private readonly layers: FourierLayer[] = [];
  private readonly fc1: { weight: tf.Variable; bias?: tf.Variable };
  private readonly fc2: { weight: tf.Variable; bias?: tf.Variable };
  private readonly mats = new Map<string, SpectralMats>();

  constructor(config: unknown) {
    const c = parseFnoConfig(config);
    this.config = { ...c };
    const store = new ParamStore('fno', c.seed ?? 42);
    const W = c.width;
    this.fc0 = store.affine('fc0', c.inChannels, W);
    const modeShape = c.dims === 1 ? [W, W, c.modes, 2] : [W, W, c.modes, c.modes, 2];
    // the original's init: scale * rand, real and imaginary parts uniform in [0, 1/(in*out))
    for (let i = 0; i < c.layers; i++) {
      const weights1 = store.scaledRand(`conv${i}.weights1`, modeShape, 1 / (W * W));
      const weights2 = c.dims === 2 ? store.scaledRand(`conv${i}.weights2`, modeShape, 1 / (W * W)) : undefined;
      const kshape = c.dims === 1 ? [W, W, 1] : [W, W, 1, 1];
      const skip = { weight: store.uniform(`w${i}.weight`, kshape, W), bias: store.uniform(`w${i}.bias`, [W], W) };
      this.layers.push({ weights1, ...(weights2 ? { weights2 } : {}), skip });
    }
    this.fc1 = store.affine('fc1', W, c.projection);
    this.fc2 = store.affine('fc2', c.projection, c.outChannels);
    this.variables = store.vars;
  }

  private matsFor(grid: number[]): SpectralMats {
    const key = grid.join('x');
    let m = this.mats.get(key);
    if (!m) {
      m = spectralMats(grid, this.config.modes);
      this.mats.set(key, m);
    }
    return m;
  }

  /** x: [B, N, C_in] or [B, H, W, C_in] -> y: [B, ..., C_out]. */
  forward(x: tf.Tensor): ForwardResult {
    const c = this.config;
    const { B, grid, N } = gridInput('fno', x, c.dims, c.inChannels);
    ensureFastWasmKernels();
    const W = c.width;
    const mats = this.matsFor(grid);
    const y = tf.tidy(() => {
      let h = linear(tf.reshape(x, [B * N, c.inChannels]), this.fc0.weight, this.fc0.bias) as tf.Tensor2D; // rows [B*N, W]
      this.layers.forEach((l, i) => {
        const s = c.dims === 1
          ? spectralConv1d(tf.reshape(h, [B, N, W]), l.weights1, mats)
          : spectralConv2d(tf.reshape(h, [B, grid[0]!, grid[1]!, W]), l.weights1, l.weights2!, mats);
        const k = linear(h, tf.reshape(l.skip.weight, [W, W]), l.skip.bias);
        h = tf.add(tf.reshape(s, [B * N, W]), k);
        if (i < this.layers.length - 1) h = gelu(h) as tf.Tensor2D;
      });
      const p = gelu(linear(h, this.fc1.weight, this.fc1.bias));
      return tf.reshape(linear(p, this.fc2.weight, this.fc2.bias), [B, ...grid, c.outChannels]);
    });
    return { y };
  }

  numParams(): number {
    return countParams(this.variables);
  }

  dispose(): void {
    for (const v of this.variables.values()) v.dispose();
    for (const m of this.mats.values()) tf.dispose(m.tensors);
    this.mats.clear();
  }
}

export function createFno(config: unknown): FnoOperator {
  return new FnoOperator(config);
}
