// tf.customGrad typed as the op it makes. tfjs types the function it takes as one of
// `...inputs: Array<Tensor | GradSaveFunc>`, and the op it returns as one of any tensors, so an op
// written with named tensors and the save function last fits neither without this.
import * as tf from './tf';

/**
 * `tf.customGrad(forward)` as a function of the forward's own tensor parameters (the save function,
 * its last parameter, left out) returning the forward's value type.
 */
export function customGradOp<A extends tf.Tensor[], R extends tf.Tensor>(
  forward: (...args: [...A, tf.GradSaveFunc]) => { value: R; gradFunc: (dy: R, saved: tf.Tensor[]) => tf.Tensor | tf.Tensor[] },
): (...args: A) => R {
  // tfjs passes the op's tensors and then the save function, which is the tuple the forward declares.
  return tf.customGrad((...inputs: Array<tf.Tensor | tf.GradSaveFunc>) => forward(...(inputs as [...A, tf.GradSaveFunc])));
}
