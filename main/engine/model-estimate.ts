// model.estimate: the model builder's numbers for a configuration and grid, from the kind's
// registry estimate (exact parameter count, FLOPs and memory of one training step; the runner's
// preflight counts parameters with the same entry), plus a sweep over square grid sizes.
import { ApiError } from '../api/api-error';
import { type ModelConfig } from '../model/kinds';
import { type ModelEstimate } from '../model/estimate-result';
import { modelEntry } from '../model/registry';
import { WASM_CAP_BYTES } from '../train/memory';
import { errorMessage } from '../util/error-message';

/** The wasm backend's memory is a 32-bit address space: the runner's limit (one constant for both). */
export const WASM_LIMIT_BYTES = WASM_CAP_BYTES;

export interface EstimateParams {
  config: ModelConfig;
  grid: number[];
  batch: number;
  coordinates: boolean;
}

export function modelEstimate(p: EstimateParams): ModelEstimate {
  if (p.grid.length !== p.config.dims) {
    throw new ApiError(`model.estimate: grid has ${p.grid.length} axes but the model is ${p.config.dims}D`, 'invalid_params', { field: 'grid' });
  }
  // With coordinates on, the pipeline appends one channel per axis to the inputs.
  const inChannels = p.config.inChannels + (p.coordinates ? p.config.dims : 0);
  const { kind = 'lino', ...rest } = p.config;
  const entry = modelEntry(kind);
  let cfg;
  try {
    cfg = entry.parse({ ...rest, inChannels }, 'model configuration');
  } catch (e) {
    throw new ApiError(errorMessage(e), 'invalid_params', { field: 'config' });
  }
  const e = entry.estimate(cfg, p.grid, p.batch);
  const sides = p.config.dims === 1 ? [64, 128, 256, 512, 1024, 2048, 4096, 8192] : [16, 32, 64, 85, 128, 141, 256, 421, 512];
  const sweep = sides.map((side) => {
    const s = entry.estimate(cfg, p.config.dims === 1 ? [side] : [side, side], p.batch);
    return { side, peakBytes: s.peakBytes, trainStepFlops: s.trainStepFlops };
  });
  return {
    ...e,
    wasmLimitBytes: WASM_LIMIT_BYTES,
    exceedsWasm: e.peakBytes > WASM_LIMIT_BYTES,
    source: entry.estimateSource,
    inChannels,
    sweep,
  };
}
