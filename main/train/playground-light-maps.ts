// A LiNO Playground prediction with its light maps: one forward pass with the blocks'
// capture hook (model/lino/light-maps.ts, the Light maps view's maths) gives the prediction, the
// same as predictInput's (the hook does not change the outputs), and per block the branch that
// dominates each point and the branches' gates: compact, so it can follow the painting.
import * as tf from '../ops/tf';
import { lightMaps } from '../model/lino/light-maps';
import type { LinoOperator } from '../model/lino/operator';
import { encodeInput } from './playground-predict';
import type { PlaygroundRun } from './playground-run';
import type { PlaygroundFields, PlaygroundLightMaps } from '../runs/playground-records';

export async function predictWithLightMaps(run: PlaygroundRun, f: PlaygroundFields): Promise<{ channels: Float32Array[]; ms: number; lightMaps: PlaygroundLightMaps }> {
  const enc = encodeInput(run, f);
  const t0 = performance.now();
  const x = tf.tensor(enc.data, enc.shape);
  let maps: Awaited<ReturnType<typeof lightMaps>> | undefined;
  let y: Float32Array;
  try {
    maps = await lightMaps(run.model as LinoOperator, x);
    y = (await maps.y.data()) as Float32Array;
  } finally {
    x.dispose();
    maps?.y.dispose();
  }
  const ms = performance.now() - t0;
  const n = run.normalizer;
  const k = n.applied ? n.y.std + n.eps : 1, m = n.applied ? n.y.mean : 0;
  const O = run.outChannels, P = y.length / O;
  const channels = Array.from({ length: O }, (_, c) => Float32Array.from({ length: P }, (_, p) => y[p * O + c]! * k + m));
  const K = maps.gates.length / maps.blocks.length;
  return {
    channels, ms,
    lightMaps: {
      grid: [...f.grid],
      blocks: maps.blocks.map((b, i) => ({ components: [...b.components], gates: Array.from(maps!.gates.subarray(i * K, (i + 1) * K)), dominant: Array.from(b.dominant) })),
    },
  };
}
