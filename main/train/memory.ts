// Memory estimate of a training step, to pick the micro-batch and to refuse, before starting, a
// configuration that cannot fit (the wasm backend addresses at most 4 GiB).
// Activation coefficients: bytes tfjs keeps per (sample x point x channel) per block during a
// training step, measured with tf.profile on tfjs 4.22 (efficient ~1200, full ~892 plus ~47 per
// (sample x point^2)); parameters, gradients and the two AdamW moments: 16 bytes per parameter.
import { totalmem } from 'node:os';

export const WASM_CAP_BYTES = 4 * 1024 ** 3;

export interface MemoryInput {
  width: number;
  depth: number;
  scattering: 'efficient' | 'full' | 'standard';
  components: string[];
  inChannels: number;
  outChannels: number;
  params: number;
  grid: number[];
  /** Autoregressive: rollout length and whether steps are checkpointed. */
  rollout?: { tOut: number; checkpointing: boolean };
  /** Blocks recomputed during backward: one block's intermediates live at a time. */
  checkpointBlocks?: boolean;
}

export interface MemoryPlan {
  backend: string;
  capBytes: number;
  batchSize: number;
  microBatch: number;
  /** Estimated peak of one optimizer step at that micro-batch. */
  estimateBytes: number;
  perSampleBytes: number;
  fixedBytes: number;
  fits: boolean;
  message: string;
}

export function capFor(backend: string): number {
  if (backend === 'wasm') return WASM_CAP_BYTES;
  // Native and cpu backends share the machine's memory with everything else: leave a margin.
  return Math.floor(totalmem() * 0.7);
}

export function perSampleActivationBytes(m: MemoryInput): number {
  const N = m.grid.reduce((a, b) => a * b, 1);
  const full = m.components.includes('scattering') && m.scattering !== 'efficient';
  const blocks = m.checkpointBlocks ? 1 : m.depth;
  let step = blocks * N * m.width * (full ? 892 : 1200);
  if (full) step += blocks * N * N * 47;
  if (m.checkpointBlocks) step += 2 * 4 * m.depth * N * m.width; // each block's saved input and its output
  step += 4 * N * (m.inChannels + 2 * m.width + m.outChannels);
  if (!m.rollout) return step;
  const frames = 4 * N * (m.inChannels + 1) * m.rollout.tOut * 4; // inputs, predictions, loss terms per step
  return m.rollout.checkpointing ? step + frames : step * m.rollout.tOut + frames;
}

const gib = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;

/** The largest micro-batch (dividing nothing in particular: the last one may be smaller) that fits. */
export function planMemory(m: MemoryInput, batchSize: number, backend: string, microBatch: number | 'auto' = 'auto'): MemoryPlan {
  const capBytes = capFor(backend);
  const perSampleBytes = perSampleActivationBytes(m);
  const fixedBytes = 16 * m.params;
  const est = (b: number) => fixedBytes + b * perSampleBytes;
  let mb = microBatch === 'auto' ? batchSize : Math.min(microBatch, batchSize);
  if (microBatch === 'auto') while (mb > 1 && est(mb) > capBytes) mb = Math.ceil(mb / 2);
  const estimateBytes = est(mb);
  const fits = estimateBytes <= capBytes;
  const ck = m.checkpointBlocks ? ', blocks recomputed during backward' : '';
  const message = fits
    ? `estimated ${gib(estimateBytes)} per step at micro-batch ${mb} of ${batchSize}${ck} (${backend} limit ${gib(capBytes)})`
    : `does not fit: one sample needs about ${gib(est(1))} per step (${gib(perSampleBytes)} of activations${m.rollout && !m.rollout.checkpointing ? ', rollout without checkpointing' : ''} + ${gib(fixedBytes)} of parameters and optimizer state); the ${backend} backend allows ${gib(capBytes)}. Use a smaller width, depth or grid${m.checkpointBlocks ? '' : ', block checkpointing'}${m.rollout && !m.rollout.checkpointing ? ', or turn on rollout checkpointing' : ''}${backend === 'wasm' ? ', or a native backend' : ''}.`;
  return { backend, capBytes, batchSize, microBatch: mb, estimateBytes, perSampleBytes, fixedBytes, fits, message };
}
