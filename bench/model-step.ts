// One training step for the model bench: forward, backward (micro-batched when needed), AdamW.
import * as tf from '@tensorflow/tfjs';
import type { NeuralOperator } from '../main/model/types';
import type { AdamW } from '../main/train/adamw';
import { mseGradients } from '../main/train/grad-step';

export async function trainStep(model: NeuralOperator, opt: AdamW, x: tf.Tensor, y: tf.Tensor, microBatch: number): Promise<number> {
  const { loss, grads } = await mseGradients(model, x, y, microBatch);
  await opt.apply(grads);
  tf.dispose([...grads.values()]);
  return loss;
}
