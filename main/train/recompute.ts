// Gradient checkpointing: a function whose forward keeps only its input and whose backward
// recomputes the forward under a fresh tape (tf.customGrad). Used per rollout step and, for LiNO,
// per block (then a step holds one block's intermediates at a time).
import * as tf from '@tensorflow/tfjs';
import type { NeuralOperator } from '../model/types';
import { LinoOperator } from '../model/lino/operator';
import { linear } from '../ops/linear';

/** fn(x) with gradients for x and for every variable in `vars`, recomputed during backward. */
export function recomputed(fn: (x: tf.Tensor) => tf.Tensor, vars: tf.Variable[]): (x: tf.Tensor) => tf.Tensor {
  const f = tf.customGrad((...args: unknown[]) => {
    const x = args[0] as tf.Tensor;
    const save = args[args.length - 1] as tf.GradSaveFunc;
    save([x]);
    const value = tf.tidy(() => fn(x));
    return {
      value,
      gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[]) => {
        const dyT = Array.isArray(dy) ? dy[0]! : dy;
        const input = tf.variable(saved[0]!, true, `recompute-in-${saved[0]!.id}-${Math.random().toString(36).slice(2)}`);
        // A gradient computation inside a backward pass: tfjs would start the nested tape over the
        // outer one and clear it at the end; keep the outer tape aside and put it back.
        const state = (tf.engine() as unknown as { state: { activeTape: unknown } }).state;
        const outerTape = state.activeTape;
        state.activeTape = null;
        try {
          const { grads } = tf.variableGrads(() => tf.sum(tf.mul(fn(input), dyT)) as tf.Scalar, [input, ...vars]);
          return [grads[input.name]!, ...vars.map((v) => grads[v.name] ?? tf.zerosLike(v))];
        } finally {
          state.activeTape = outerTape;
          input.dispose();
        }
      },
    };
  });
  return (x: tf.Tensor) => (f as unknown as (...t: tf.Tensor[]) => tf.Tensor)(x, ...vars);
}

export function supportsBlockCheckpointing(model: NeuralOperator): model is LinoOperator {
  return model instanceof LinoOperator;
}

/**
 * LiNO's forward with every block recomputed during backward: the same arithmetic as
 * LinoOperator.forward (lifting, blocks, projection), holding one block's intermediates at a time.
 */
export function forwardBlockCheckpointed(model: LinoOperator, x: tf.Tensor): tf.Tensor {
  const cfg = model.config;
  const v = (k: string) => model.variables.get(k);
  const B = x.shape[0]!;
  const grid = x.shape.slice(1, -1);
  const N = grid.reduce((a, b) => a * b, 1);
  const consts = (model as unknown as { consts: Parameters<LinoOperator['blocks'][number]['apply']>[2] }).consts;
  return tf.tidy(() => {
    let h = tf.reshape(linear(x, v('lifting.linear.weight')!, v('lifting.linear.bias')), [B, N, cfg.width]) as tf.Tensor3D;
    model.blocks.forEach((blk, i) => {
      const vars = [...model.variables].filter(([k]) => k.startsWith(`blocks.${i}.`)).map(([, t]) => t);
      h = recomputed((hin) => blk.apply(hin as tf.Tensor3D, grid, consts).y, vars)(h) as tf.Tensor3D;
    });
    return tf.reshape(linear(h, v('projection.linear.weight')!, v('projection.linear.bias')), [B, ...grid, cfg.outChannels]);
  });
}
