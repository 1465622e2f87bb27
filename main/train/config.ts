// A run's configuration (runs/<id>/config.json) and what train.calibrate measures: zod schemas only
// (no tensors: the host validates configurations with them), re-exported by main/api/contract.ts.
import { z } from 'zod';
import { MODEL_KINDS, RUN_MODEL_FIELDS, runModelDefaults } from '../model/kinds';
import { DataSpec } from '../data/data-spec';
import { TORCH_DEVICES } from './torch-report';

/** A run's configuration (defaults = the paper's protocol); stored as runs/<id>/config.json. */
export const TrainConfig = z.object({
  name: z.string().max(200).optional(),
  /** Run group (several seeds of one configuration): runs with the same group are summarized together. */
  group: z.string().max(200).optional(),
  /** Set by the run store. */
  id: z.string().optional(),
  createdAt: z.string().optional(),
  /** Recorded on first start: the dataset's id, content hash, grid, split sizes and normalizer. */
  resolvedData: z.record(z.string(), z.unknown()).optional(),
  /** The model: `kind` names its registry entry (main/model/registry.ts); fields a kind does not use are ignored by it. */
  model: z.preprocess(runModelDefaults, z.object({
    kind: z.enum(MODEL_KINDS).default('lino'),
    width: z.number().int().min(1).max(4096).default(128),
    /** LiNO: blocks; FNO: Fourier layers (4 when omitted); DeepONet: layers of branch and of trunk. */
    depth: z.number().int().min(1).max(64).default(8),
    scattering: z.enum(['efficient', 'full', 'standard']).default('efficient'),
    components: z.array(z.enum(['reflection', 'refraction', 'scattering'])).min(1).default(['reflection', 'refraction', 'scattering']),
    /** Each kind's own fields (FNO's modes, DeepONet's basis), from its declaration. */
    ...RUN_MODEL_FIELDS,
  }).strict()).prefault({}),
  data: DataSpec,
  epochs: z.number().int().min(1).max(100_000).default(500),
  batchSize: z.number().int().min(1).max(4096).default(4),
  /** Samples per forward/backward; gradients accumulate to the whole batch. 'auto' = the largest that fits. */
  microBatch: z.union([z.number().int().min(1), z.literal('auto')]).default('auto'),
  /** Split, shuffling and initialization. */
  seed: z.number().int().default(42),
  optimizer: z.object({
    lr: z.number().positive().default(1e-3),
    weightDecay: z.number().min(0).default(1e-5),
    beta1: z.number().min(0).max(1).default(0.9),
    beta2: z.number().min(0).max(1).default(0.999),
    eps: z.number().positive().default(1e-8),
  }).strict().prefault({}),
  /** Global-norm gradient clipping; 0 turns it off. */
  clipNorm: z.number().min(0).default(1.0),
  schedule: z.object({ stepSize: z.number().int().min(1).default(5), gamma: z.number().positive().default(0.96) }).strict().prefault({}),
  /** Autoregressive runs: recompute each rollout step's forward during backward (bounded memory). */
  rollout: z.object({ checkpointing: z.boolean().default(true) }).strict().prefault({}),
  /** LiNO: recompute each block during backward so a step holds one block's intermediates; 'auto' = only when the step would not fit otherwise. */
  checkpointBlocks: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  /**
   * Force a backend (tensorflow-gpu, webgpu, tensorflow, wasm, cpu; or 'torch': PyTorch through the
   * configured Python, main/train/torch-run.ts); default: the engine's choice.
   */
  backend: z.string().optional(),
  /** backend 'torch': the device (default: CUDA, else MPS, else the CPU, as the probe finds them) and GPUs (> 1: torchrun). */
  torch: z.object({
    device: z.enum(TORCH_DEVICES).optional(),
    gpus: z.number().int().min(1).max(64).default(1),
  }).strict().optional(),
  /**
   * Data-parallel threads per step (wasm/cpu backends: each thread its own backend); the batch is
   * split between them, the gradients summed: the same maths as 1. 'auto' = the machine's cores (max 8).
   */
  workers: z.union([z.number().int().min(1).max(8), z.literal('auto')]).default(1),
}).strict();
export type TrainConfig = z.infer<typeof TrainConfig>;
export type TrainConfigInput = z.input<typeof TrainConfig>;

/** train.calibrate: a configuration's measured step time and the run's time at that speed. */
export const Calibration = z.object({
  backend: z.string(),
  msPerStep: z.number(),
  steps: z.number(),
  warmupMs: z.number(),
  stepsPerEpoch: z.number(),
  secondsPerEpoch: z.number(),
  totalSeconds: z.number(),
  epochs: z.number(),
  grid: z.array(z.number()),
  train: z.number(),
  val: z.number(),
  microBatch: z.number(),
  note: z.string(),
});
export type Calibration = z.infer<typeof Calibration>;
