// DeepONet's configuration read back from state_dict key names and shapes (lino info on a DeepONet
// file). The branch's first layer is points * inChannels wide: the file does not separate the two,
// so the grid and the input channels are reported as that product.
export interface InferredDeepOnetConfig {
  dims: 1 | 2;
  outChannels: number;
  width: number;
  layers: number;
  basis: number;
  /** prod(grid) * inChannels: what the branch takes. */
  branchInputs: number;
  notes: string[];
}

/** `shapes`: state_dict key -> shape. Errors name `source`, the key and what was expected. */
export function inferDeepOnetConfigFromShapes(shapes: ReadonlyMap<string, { shape: readonly number[] }>, source = 'weights'): InferredDeepOnetConfig {
  const get = (k: string) => {
    const s = shapes.get(k)?.shape;
    if (!s) throw new Error(`${source}: key '${k}' missing: not a DeepONet state_dict (expected branch.layers.<i>, trunk.layers.<i>, bias)`);
    return s;
  };
  const [outChannels] = get('bias') as [number];
  const [width0, branchInputs] = get('branch.layers.0.weight') as [number, number];
  const [, dims] = get('trunk.layers.0.weight') as [number, number];
  if (dims !== 1 && dims !== 2) throw new Error(`${source}: key 'trunk.layers.0.weight' takes ${dims} coordinates, expected 1 or 2`);
  let layers = 0;
  while (shapes.has(`branch.layers.${layers}.weight`)) layers++;
  const [lastOut] = get(`branch.layers.${layers - 1}.weight`) as [number];
  if (lastOut % outChannels !== 0) throw new Error(`${source}: key 'branch.layers.${layers - 1}.weight' has ${lastOut} outputs, expected a multiple of the ${outChannels} output channels`);
  const width = layers > 1 ? width0 : 0;
  return {
    dims: dims as 1 | 2,
    outChannels,
    width,
    layers,
    basis: lastOut / outChannels,
    branchInputs,
    notes: [`the branch takes ${branchInputs} values (grid points x input channels); the model runs only at that resolution`],
  };
}
