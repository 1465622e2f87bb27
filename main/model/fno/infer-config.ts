// FNO's configuration read back from state_dict key names and shapes (lino info on an FNO file).
import type { FnoConfig } from './config';

export type InferredFnoConfig = FnoConfig & { notes: string[] };

/** `shapes`: state_dict key -> shape. Errors name `source`, the key and what was expected. */
export function inferFnoConfigFromShapes(shapes: ReadonlyMap<string, { shape: readonly number[] }>, source = 'weights'): InferredFnoConfig {
  const get = (k: string) => {
    const s = shapes.get(k)?.shape;
    if (!s) throw new Error(`${source}: key '${k}' missing: not an FNO state_dict (expected fc0, conv<i>.weights1, w<i>, fc1, fc2)`);
    return s;
  };
  const [width, inChannels] = get('fc0.weight') as [number, number];
  const w1 = get('conv0.weights1');
  if (w1[w1.length - 1] !== 2) throw new Error(`${source}: key 'conv0.weights1' has shape [${w1.join(', ')}], expected a trailing real/imag axis of 2`);
  const dims = (w1.length - 3) as 1 | 2;
  if (dims !== 1 && dims !== 2) throw new Error(`${source}: key 'conv0.weights1' has shape [${w1.join(', ')}], expected [in, out, modes(, modes), 2]`);
  let layers = 0;
  while (shapes.has(`conv${layers}.weights1`)) layers++;
  const [projection] = get('fc1.weight') as [number];
  const [outChannels] = get('fc2.weight') as [number];
  return { dims, inChannels, outChannels, width, modes: w1[2]!, layers, projection, notes: [] };
}
