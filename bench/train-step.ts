// One training step as the Trainer runs it (main/train/trainer.ts applyStep): gradients with the
// loss terms as tensors, one flat gradient, its norm, one read of loss/relL2/norm (host AdamW:
// and the gradient), clipping, AdamW. For the benches, which time a model without a dataset.
import * as tf from '../main/ops/tf';
import type { NeuralOperator } from '../main/model/types';
import { AdamW } from '../main/train/adamw';
import { shareGradientTensors } from '../main/train/batch-grads';
import { clipCoef, flatNorm } from '../main/train/clip';
import { concatFlat } from '../main/ops/concat-flat';
import { readValues } from '../main/ops/backend';

export function makeTrainStep(model: NeuralOperator, x: tf.Tensor, y: tf.Tensor, o: { device?: boolean; microBatch?: number; clipNorm?: number } = {}) {
  const opt = new AdamW(model.variables, { lr: 1e-3, weightDecay: 1e-5 }, o.device === undefined ? {} : { device: o.device });
  const B = x.shape[0]!;
  const grad = { ar: null, microBatch: o.microBatch ?? B, checkpointBlocks: false, rolloutCheckpointing: false };
  const step = async (): Promise<number> => {
    const share = shareGradientTensors(model, B, B, (i, k) => ({ x: tf.slice(x, i, k), y: tf.slice(y, i, k) }), grad);
    const f = concatFlat(opt.keys.map((k) => share.grads.get(k)!));
    const stats = tf.tidy(() => {
      const s = tf.stack([share.loss, share.relSum, flatNorm(f)]);
      return opt.device ? s : tf.concat([f, s]);
    });
    const v = await readValues(stats);
    const [loss, , norm] = [...v.subarray(v.length - 3)] as [number, number, number];
    const coef = clipCoef(norm, o.clipNorm ?? 1);
    await opt.applyFlat(opt.device ? f : v.subarray(0, v.length - 3), 1e-3, coef);
    tf.dispose([f, stats, share.loss, share.relSum, ...share.grads.values()]);
    return loss;
  };
  return { step, opt, dispose: () => opt.dispose() };
}
