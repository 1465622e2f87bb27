// Gradient checkpointing: a function whose forward keeps only its input and whose backward
// recomputes the forward under a fresh tape (tf.customGrad). Used per rollout step and by models
// that recompute their blocks (a step then holds one block's intermediates at a time).
import * as tf from '../tf';

/** Numbers the variables the backward passes create: tfjs variable names must be unique. */
let recomputations = 0;

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
        const input = tf.variable(saved[0]!, true, `recompute-in-${saved[0]!.id}-${++recomputations}`);
        // A gradient computation inside a backward pass: tfjs would start the nested tape over the
        // outer one and clear it at the end; keep the outer tape aside and put it back.
        // tfjs itself sets the tape to null between gradient computations; its type says only TapeNode[].
        const state: { activeTape: unknown } = tf.engine().state;
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
  return (x: tf.Tensor) => f(x, ...vars);
}

