// DeepONet: parameter count (exact), FLOPs of its matMuls and a memory estimate of one training
// step, counted from the tensors the step keeps (not fitted to tf.profile as LiNO's are). The grid
// is the estimate's own (the Model view's sweep asks for other grid sizes: a DeepONet built there).
import { gridPoints, parseDeepOnetConfig, type DeepOnetConfig } from './config';
import type { LinoEstimate } from '../lino/estimate';

function mlpSizes(c: DeepOnetConfig, inputs: number): number[] {
  return [inputs, ...new Array<number>(c.layers - 1).fill(c.width), c.basis * c.outChannels];
}

function mlpParams(sizes: number[]): number {
  let n = 0;
  for (let i = 1; i < sizes.length; i++) n += sizes[i - 1]! * sizes[i]! + sizes[i]!;
  return n;
}

function paramsAt(c: DeepOnetConfig, points: number): number {
  return mlpParams(mlpSizes(c, points * c.inChannels)) + mlpParams(mlpSizes(c, c.dims)) + c.outChannels;
}

export function deepOnetParamCount(config: unknown): number {
  const c = parseDeepOnetConfig(config);
  return paramsAt(c, gridPoints(c.grid));
}

export function estimateDeepOnet(config: unknown, grid: readonly number[], batch: number): LinoEstimate {
  const c = parseDeepOnetConfig(config);
  const N = gridPoints(grid);
  const branch = mlpSizes(c, N * c.inChannels);
  const trunk = mlpSizes(c, c.dims);
  const params = paramsAt(c, N);
  const macs = (sizes: number[]) => sizes.slice(1).reduce((a, s, i) => a + sizes[i]! * s, 0);
  const widths = (sizes: number[]) => sizes.slice(1).reduce((a, s) => a + s, 0);
  // branch per sample, trunk once per step, the basis products per sample
  const forwardFlops = 2 * batch * macs(branch) + 2 * N * macs(trunk) + 2 * batch * N * c.basis * c.outChannels;
  const paramStateBytes = 16 * params;
  // kept for backward: the input, each layer's output and its ReLU (branch per sample, trunk once), the output
  const activationBytes = 4 * (batch * (N * c.inChannels + 2 * widths(branch) + N * c.outChannels) + 2 * N * widths(trunk) + N * c.dims);
  return { params, forwardFlops, trainStepFlops: 3 * forwardFlops + 12 * params, paramStateBytes, activationBytes, peakBytes: paramStateBytes + activationBytes };
}
