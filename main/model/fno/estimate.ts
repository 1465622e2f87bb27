// FNO: parameter count (exact), FLOPs of the matMul formulation (./spectral-conv.ts) and a memory
// estimate of one training step. The activation coefficient is a count of the tensors the step
// keeps per layer (not yet fitted to tf.profile as LiNO's are).
import { parseFnoConfig } from './config';
import type { LinoEstimate } from '../lino/estimate';

export function fnoParamCount(config: unknown): number {
  const c = parseFnoConfig(config);
  const W = c.width;
  const spectral = c.dims === 1 ? 2 * W * W * c.modes : 2 * 2 * W * W * c.modes * c.modes;
  return c.inChannels * W + W + c.layers * (spectral + W * W + W) + W * c.projection + c.projection + c.projection * c.outChannels + c.outChannels;
}

/** Forward FLOPs of one spectral convolution for one sample. */
function spectralFlops(grid: readonly number[], W: number, m: number): number {
  const mul = (k: number) => 2 * k * (2 * W) * (2 * W);
  if (grid.length === 1) {
    const N = grid[0]!;
    return 2 * W * N * 2 * m + mul(m) + 2 * W * 2 * m * N;
  }
  const [H, Wd] = grid as [number, number];
  const R = 2 * m;
  return 2 * H * W * Wd * 2 * m + 2 * W * m * 2 * H * 2 * R + mul(R * m) + 2 * W * m * 2 * R * 2 * H + 2 * H * W * 2 * m * Wd;
}

/** Tensors of [points x width] a training step keeps per Fourier layer (input, spectral output, sum, GELU, transposes). */
const KEPT_PER_LAYER = 8;

export function estimateFno(config: unknown, grid: readonly number[], batch: number): LinoEstimate {
  const c = parseFnoConfig(config);
  const N = grid.reduce((a, b) => a * b, 1);
  const W = c.width;
  const params = fnoParamCount(c);
  const layer = spectralFlops(grid, W, c.modes) + 2 * N * W * W + 10 * N * W;
  const forwardFlops = batch * (2 * N * c.inChannels * W + c.layers * layer + 2 * N * W * c.projection + 10 * N * c.projection + 2 * N * c.projection * c.outChannels);
  const paramStateBytes = 16 * params;
  const activationBytes = 4 * batch * N * (c.layers * KEPT_PER_LAYER * W + 3 * c.projection + c.inChannels + c.outChannels);
  return { params, forwardFlops, trainStepFlops: 3 * forwardFlops + 12 * params, paramStateBytes, activationBytes, peakBytes: paramStateBytes + activationBytes };
}
