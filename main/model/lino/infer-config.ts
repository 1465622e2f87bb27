// Reads a LiNO architecture back from a state dict's key names and shapes (the release's names):
// shared by `lino info` (safetensors) and the import of PyTorch checkpoints.
import { COMPONENTS } from './config';

export interface InferredConfig {
  dims?: 1 | 2;
  inChannels: number;
  outChannels: number;
  width: number;
  depth: number;
  scattering?: 'efficient' | 'full';
  components: string[];
  notes: string[];
}

/** `shapes`: state_dict key -> shape. Errors name `source`. */
export function inferLinoConfigFromShapes(shapes: ReadonlyMap<string, { shape: readonly number[] }>, source = 'weights'): InferredConfig {
  const shape = (k: string) => shapes.get(k)?.shape;
  const lift = shape('lifting.linear.weight');
  const proj = shape('projection.linear.weight');
  if (!lift || !proj) throw new Error(`${source}: no 'lifting.linear.weight'/'projection.linear.weight': not a LiNO state dict`);
  const blocks = new Set<number>();
  for (const k of shapes.keys()) {
    const m = /^blocks\.(\d+)\./.exec(k);
    if (m) blocks.add(Number(m[1]));
  }
  const components = COMPONENTS.filter((c) => [...shapes.keys()].some((k) => k.startsWith(`blocks.0.${c}.`)));
  const notes: string[] = [];
  let scattering: 'efficient' | 'full' | undefined;
  let dims: 1 | 2 | undefined;
  if (shapes.has('blocks.0.scattering.log_tau')) scattering = 'full';
  if (shapes.has('blocks.0.scattering.local_gate')) scattering = 'efficient';
  const conv = shape('blocks.0.scattering.local_conv.weight');
  if (conv) dims = conv.length === 3 ? 1 : 2;
  if (!dims) notes.push('dims is not determined by these weights (only efficient scattering has dimension-specific parameters)');
  if (!scattering) notes.push('scattering kind does not matter: the scattering branch is disabled');
  return { ...(dims ? { dims } : {}), inChannels: lift[1]!, outChannels: proj[0]!, width: lift[0]!, depth: blocks.size, ...(scattering ? { scattering } : {}), components, notes };
}
