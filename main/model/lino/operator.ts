// The whole operator: u = Projection(Block_L(...Block_1(Lifting(a)))), channels-last,
// 1D [B, Q, C] or 2D [B, H, W, C]. Implements the NeuralOperator contract.
import * as tf from '../../ops/tf';
import type { BlockDiagnostics, ForwardResult, NeuralOperator } from '../types';
import { linear } from '../../ops/linear';
import { ensureFastWasmKernels } from '../../ops/tfjs-internals/wasm-kernels';
import { parseLinoConfig, type LinoConfig } from './config';
import { GridConstants } from './constants';
import { ParamStore } from './params';
import { countParams, gridInput } from '../operator-input';
import { LightBlock, type BlockCapture } from './block';

export class LinoOperator implements NeuralOperator {
  readonly kind = 'lino';
  readonly config: LinoConfig & Record<string, unknown>;
  readonly variables: ReadonlyMap<string, tf.Variable>;
  readonly blocks: LightBlock[];
  private readonly lifting: { weight: tf.Variable; bias?: tf.Variable };
  private readonly projection: { weight: tf.Variable; bias?: tf.Variable };
  private readonly consts = new GridConstants();
  /** Grid constants the blocks share (block checkpointing applies the blocks itself). */
  get gridConstants(): GridConstants {
    return this.consts;
  }

  constructor(config: unknown) {
    const cfg = parseLinoConfig(config);
    this.config = { ...cfg };
    const store = new ParamStore('lino', cfg.seed ?? 42);
    this.lifting = store.affine('lifting.linear', cfg.inChannels, cfg.width);
    this.blocks = [];
    for (let i = 0; i < cfg.depth; i++) this.blocks.push(new LightBlock(store, `blocks.${i}`, cfg));
    this.projection = store.affine('projection.linear', cfg.width, cfg.outChannels);
    this.variables = store.vars;
  }

  /**
   * x: [B, Q, C_in] or [B, H, W, C_in] -> y: [B, ..., C_out]. With diagnostics, each block's
   * alpha [B, K] is tf.keep()-ed so it survives the caller's tidy/variableGrads scope: the
   * caller disposes it. capture (light maps) sees each block's intermediates inside this pass's
   * tidy scope; it does not change the outputs.
   */
  forward(x: tf.Tensor, opts: { diagnostics?: boolean; capture?: (block: number, c: BlockCapture) => void } = {}): ForwardResult {
    const cfg = this.config;
    const { B, grid, N } = gridInput('lino', x, cfg.dims, cfg.inChannels);
    ensureFastWasmKernels();
    const diagnostics: BlockDiagnostics[] = [];
    const y = tf.tidy(() => {
      // activations stay 2-D, [B*N, M], from lifting to projection: one reshape at each edge
      let h = linear(tf.reshape(x, [B * N, cfg.inChannels]), this.lifting.weight, this.lifting.bias) as tf.Tensor2D;
      for (const [b, blk] of this.blocks.entries()) {
        const capture = opts.capture;
        const r = blk.applyRows(h, B, grid, this.consts, capture && ((c) => capture(b, c)));
        h = r.y;
        if (opts.diagnostics) diagnostics.push(blk.diagnostics(tf.keep(r.alpha)));
      }
      return tf.reshape(linear(h, this.projection.weight, this.projection.bias), [B, ...grid, cfg.outChannels]);
    });
    return opts.diagnostics ? { y, diagnostics } : { y };
  }

  numParams(): number {
    return countParams(this.variables);
  }

  dispose(): void {
    for (const v of this.variables.values()) v.dispose();
    this.consts.dispose();
  }
}

export function createLino(config: unknown): LinoOperator {
  return new LinoOperator(config);
}
