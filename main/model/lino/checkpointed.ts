// LiNO's forward with every block recomputed during backward: the same arithmetic as
// LinoOperator.forward (lifting, blocks, projection), holding one block's intermediates at a time.
import * as tf from '../../ops/tf';
import type { NeuralOperator } from '../types';
import { linear } from '../../ops/linear';
import { recomputed } from '../../ops/tfjs-internals/recompute';
import { LinoOperator } from './operator';

export function linoForwardCheckpointed(m: NeuralOperator, x: tf.Tensor): tf.Tensor {
  if (!(m instanceof LinoOperator)) throw new Error(`lino forwardCheckpointed: got a '${m.kind}' model`);
  const cfg = m.config;
  const v = (k: string) => m.variables.get(k);
  const B = x.shape[0]!;
  const grid = x.shape.slice(1, -1);
  const N = grid.reduce((a, b) => a * b, 1);
  const consts = m.gridConstants;
  return tf.tidy(() => {
    let h = tf.reshape(linear(x, v('lifting.linear.weight')!, v('lifting.linear.bias')), [B, N, cfg.width]) as tf.Tensor3D;
    m.blocks.forEach((blk, i) => {
      const vars = [...m.variables].filter(([k]) => k.startsWith(`blocks.${i}.`)).map(([, t]) => t);
      h = recomputed((hin) => blk.apply(hin as tf.Tensor3D, grid, consts).y, vars)(h) as tf.Tensor3D;
    });
    return tf.reshape(linear(h, v('projection.linear.weight')!, v('projection.linear.bias')), [B, ...grid, cfg.outChannels]);
  });
}
