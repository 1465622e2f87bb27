// tf.customGrad typed as the op it makes, with gradients that may be left uncomputed. tfjs types
// the function it takes as one of `...inputs: Array<Tensor | GradSaveFunc>`, and the op it returns
// as one of any tensors, so an op written with named tensors and the save function last fits
// neither without this. And tfjs's customGrad computes every input's gradient at once, while its
// engine asks only for those on a path to the variables: a training step computed the gradient of
// each model's input data (DeepONet on Darcy 29²: a [4, 128] x [128, 2523] product, 0.8 ms of a
// 14 ms step). Here a gradient may be a function, called only when the engine asks for it. This is
// tfjs 4.22's Engine.customGrad with that change, on its runKernelFunc (private: tfjs is pinned).
import * as tf from './tf';

/** An input's gradient: a tensor, or a function the engine calls only when it needs that gradient. */
export type InputGrad = tf.Tensor | (() => tf.Tensor);

interface EngineRunKernelFunc {
  runKernelFunc(k: {
    forwardFunc: (backend: unknown, save: tf.GradSaveFunc) => tf.Tensor;
    backwardsFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => Record<number, () => tf.Tensor>;
    inputs: Record<number, tf.Tensor>;
  }): tf.Tensor;
}

/**
 * An op from `forward` (its tensor parameters, then the save function) that returns its value and
 * a gradient function giving each input's gradient, in order (a tensor or a function).
 */
export function customGradOp<A extends tf.Tensor[], R extends tf.Tensor>(
  forward: (...args: [...A, tf.GradSaveFunc]) => { value: R; gradFunc: (dy: R, saved: tf.Tensor[]) => InputGrad | InputGrad[] },
): (...args: A) => R {
  return (...inputs: A): R => {
    if (!inputs.every((t) => t instanceof tf.Tensor)) throw new Error('customGradOp: every argument must be a tensor');
    let res: ReturnType<typeof forward> | undefined;
    const engine = tf.engine() as unknown as EngineRunKernelFunc;
    return engine.runKernelFunc({
      forwardFunc: (_backend, save) => (res = forward(...inputs, save)).value,
      backwardsFunc: (dy, saved) => {
        const out = res!.gradFunc(dy as R, saved);
        const grads = Array.isArray(out) ? out : [out];
        if (grads.length !== inputs.length) throw new Error(`customGradOp: the gradient function gave ${grads.length} gradients for ${inputs.length} inputs`);
        return Object.fromEntries(grads.map((g, i) => [i, typeof g === 'function' ? g : () => g]));
      },
      inputs: Object.fromEntries(inputs.map((t, i) => [i, t])),
    }) as R;
  };
}
