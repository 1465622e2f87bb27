// A Navier-Stokes Playground input through a loaded autoregressive run: the T_in history
// frames encoded as the pipeline encodes them (the checkpoint's input normalizer, coordinates
// appended), rolled out T_out steps by `rollout` (the evaluation's code: each prediction fed back,
// normalized, as the newest history frame), decoded with the target normalizer; relL2 of the whole
// rollout (the evaluation's rolloutRelL2Decoded) and of each step against the truth's frames.
import * as tf from '../ops/tf';
import { readValues } from '../ops/backend';
import { rollout } from './rollout';
import { encodeInput, relL2Of } from './playground-predict';
import type { PlaygroundRun } from './playground-run';
import type { PlaygroundFields } from '../runs/playground-records';

/** The decoded rollout, one array per predicted frame (T_out of them), and the time it took. */
export async function predictRollout(run: PlaygroundRun, f: PlaygroundFields): Promise<{ channels: Float32Array[]; ms: number }> {
  const ar = run.autoregressive!;
  const x = encodeInput(run, f);
  const t0 = performance.now();
  const y = tf.tidy(() => rollout(run.model, tf.tensor(x.data, x.shape, 'float32'), { tIn: ar.tIn, tOut: ar.tOut, checkpoint: false }));
  let data: Float32Array;
  try {
    data = Float32Array.from(await readValues(y));
  } finally {
    y.dispose();
  }
  const ms = performance.now() - t0;
  const n = run.normalizer;
  const k = n.applied ? n.y.std + n.eps : 1, m = n.applied ? n.y.mean : 0;
  const T = ar.tOut;
  const P = data.length / T;
  const channels = Array.from({ length: T }, (_, t) => Float32Array.from({ length: P }, (_, p) => data[p * T + t]! * k + m));
  return { channels, ms };
}

/** relL2 of each predicted frame against the truth's frame at the same step. */
export function stepRelL2Of(pred: ArrayLike<number>[], truth: ArrayLike<number>[]): number[] {
  return truth.map((t, c) => relL2Of([pred[c]!], [t]));
}
