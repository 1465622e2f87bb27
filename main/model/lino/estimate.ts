// Parameter count (exact), and estimates of FLOPs and memory of one training step
// (forward, backward, AdamW) for a grid, for the model builder view.
import { parseLinoConfig, type LinoConfig } from './config';

export interface LinoEstimate {
  params: number;
  /** Forward FLOPs for the whole batch (multiply-add = 2). */
  forwardFlops: number;
  /** forward + backward (~2x forward) + AdamW (~12 per parameter). */
  trainStepFlops: number;
  /** Parameters, gradients and the two AdamW moments, bytes. */
  paramStateBytes: number;
  /** Intermediates tfjs keeps for the backward pass, bytes (coefficients measured on tfjs 4.22). */
  activationBytes: number;
  /** paramStateBytes + activationBytes. */
  peakBytes: number;
}

function blockParams(c: LinoConfig): number {
  const M = c.width;
  const K = c.components.length;
  let n = 4 * M; // norm1, norm2
  n += 2 * M * M + 2 * M + 2 * M * K + K; // gate
  n += M * M + M; // out_proj
  n += 4 * M * M + 3 * M; // ffn
  if (c.components.includes('reflection')) n += M * M + M;
  if (c.components.includes('refraction')) n += M * M + M + 1;
  if (c.components.includes('scattering')) {
    n += 3 * M * M + 1; // q, k, v, log_sigma
    if (c.scattering === 'full') n += 1; // log_tau
    else n += c.dims * M + M + M * M + M + M * (c.dims === 1 ? 3 : 9) + M * M + 1; // coord_mlp, local_conv, local_proj, local_gate
  }
  return n;
}

export function linoParamCount(config: unknown): number {
  const c = parseLinoConfig(config);
  return c.inChannels * c.width + c.width + c.depth * blockParams(c) + c.width * c.outChannels + c.outChannels;
}

// Bytes tfjs keeps per (sample x point x channel) and per block during a training step, and per
// (sample x point^2) for full scattering: fitted to tf.profile().peakBytes (12^2..32^2). wasm keeps
// more than the batched backends (its per-sample products stack slices); it is the default, the
// larger, for callers that budget memory without naming a backend.
const ACT = {
  wasm: { efficient: 780, full: 405, fullNN: 74 }, // efficient: B=1 steps (the bench) peak higher than B=2
  batched: { efficient: 490, full: 300, fullNN: 43 }, // cpu, webgpu, tensorflow
} as const;

/** backend: the tfjs backend the step runs on (wasm's figures when omitted). */
export function estimateLino(config: unknown, grid: readonly number[], batch: number, backend = 'wasm'): LinoEstimate {
  const c = parseLinoConfig(config);
  const N = grid.reduce((a, b) => a * b, 1);
  const M = c.width;
  const K = c.components.length;
  const params = linoParamCount(c);
  let block = 2 * N * M * M * 1 + 8 * N * M * M + 2 * (2 * M * M + 2 * M * K) + 2 * N * M * K + 20 * N * M; // out_proj, ffn, gate, mix, norms
  if (c.components.includes('reflection')) block += 2 * N * M * M + 8 * N * M;
  if (c.components.includes('refraction')) block += 2 * N * M * M + 8 * N * M;
  if (c.components.includes('scattering')) {
    if (c.scattering === 'full') block += 6 * N * M * M + 4 * N * N * M + 6 * N * N;
    else block += 6 * N * M * M + 2 * N * (c.dims * M + M * M) + 4 * N * M * M + 2 * N * M * (c.dims === 1 ? 3 : 9) + 2 * N * M * M + 10 * N * M;
  }
  const forwardFlops = batch * (2 * N * c.inChannels * M + c.depth * block + 2 * N * M * c.outChannels);
  const trainStepFlops = 3 * forwardFlops + 12 * params;
  const paramStateBytes = 16 * params;
  const scat = c.components.includes('scattering') ? c.scattering : 'efficient';
  const act = backend === 'wasm' ? ACT.wasm : ACT.batched;
  let activationBytes = c.depth * batch * N * M * act[scat];
  if (scat === 'full' && c.components.includes('scattering')) activationBytes += c.depth * batch * N * N * act.fullNN;
  activationBytes += 4 * batch * N * (c.inChannels + 2 * M + c.outChannels);
  return { params, forwardFlops, trainStepFlops, paramStateBytes, activationBytes, peakBytes: paramStateBytes + activationBytes };
}
