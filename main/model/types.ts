// Contract every operator model (LiNO now; FNO and DeepONet later) implements, so that
// training, evaluation, checkpoints and the UI never depend on one architecture.
import type * as tf from '../ops/tf';

/** Per-block diagnostics the UI plots (LiNO: gate weights and block scalars). */
export interface BlockDiagnostics {
  /** Gate weights, [B, K], one row per sample; K = enabled components in the order reflection, refraction, scattering. */
  alpha: tf.Tensor2D;
  components: string[];
  /** Named block scalars, e.g. beta, eta, sigma, tau (absent when the component is disabled). */
  scalars: Record<string, number>;
}

export interface ForwardResult {
  y: tf.Tensor;
  diagnostics?: BlockDiagnostics[];
}

export interface NeuralOperator {
  /** Registry name, e.g. 'lino'. */
  readonly kind: string;
  /** JSON-serialisable configuration that recreates this model through the registry. */
  readonly config: Record<string, unknown>;
  /** Trainable variables keyed by the reference implementation's state_dict names. */
  readonly variables: ReadonlyMap<string, tf.Variable>;
  /** x: channels-last [B, ...grid, C_in] -> y: [B, ...grid, C_out]. */
  forward(x: tf.Tensor, opts?: { diagnostics?: boolean }): ForwardResult;
  /** Parameter count. */
  numParams(): number;
  dispose(): void;
}
