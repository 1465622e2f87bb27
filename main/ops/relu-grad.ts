// A ReLU layer's gradient from its output y = relu(x): dy where y > 0, else 0 (y > 0 exactly where
// x > 0, so this is PyTorch's threshold_backward, 0 at x = 0). On wasm one kernel of our own
// (tfjs-internals/wasm-relu-grad.ts); elsewhere tfjs's Step and Multiply.
// No gradient of its own: linear.ts uses it inside a custom gradient.
import * as tf from './tf';
import { hasFusedKernel, runFused } from './kernel-registry';
import { registerWasmReluGrad } from './tfjs-internals/wasm-relu-grad';

const NAME = 'LinoReluGrad';
registerWasmReluGrad(NAME);

export function reluGrad(dy: tf.Tensor, y: tf.Tensor): tf.Tensor {
  if (hasFusedKernel(NAME) && dy.dtype === 'float32') return runFused(NAME, { dy, y })[0]!;
  return tf.tidy(() => tf.mul(dy, tf.step(y)));
}
