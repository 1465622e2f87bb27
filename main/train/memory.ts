// Memory estimate of a training step, to pick the micro-batch and to refuse, before starting, a
// configuration that cannot fit (the wasm backend addresses at most 4 GiB). A step's activations
// come from the model kind's own registry estimate (the numbers the Model view shows, fitted per
// backend); this file adds what training adds: block recomputation, rollout frames, and 16 bytes
// per parameter for parameters, gradients and the two AdamW moments.
import { totalmem } from 'node:os';
import { modelEntry } from '../model/registry';
import { resolveParams } from '../data/generate/presets';
import type { BenchmarkName, PresetName } from '../data/generate/types';

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
  /** Registry kind ('lino' when omitted) and its config: kinds other than LiNO take their activations from their registry estimate. */
  kind?: string;
  modelConfig?: Record<string, unknown>;
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

export function perSampleActivationBytes(m: MemoryInput, backend = 'wasm'): number {
  const N = m.grid.reduce((a, b) => a * b, 1);
  const step = stepActivationBytes(m, N, backend);
  if (!m.rollout) return step;
  const frames = 4 * N * (m.inChannels + 1) * m.rollout.tOut * 4; // inputs, predictions, loss terms per step
  return m.rollout.checkpointing ? step + frames : step * m.rollout.tOut + frames;
}

/** One sample's activations in one forward+backward, from the kind's registry estimate. */
function stepActivationBytes(m: MemoryInput, N: number, backend: string): number {
  const entry = modelEntry(m.kind ?? 'lino');
  const config = m.modelConfig ?? { width: m.width, depth: m.depth, scattering: m.scattering, components: m.components, inChannels: m.inChannels, outChannels: m.outChannels, dims: m.grid.length };
  if (!m.checkpointBlocks) return entry.estimate(config, m.grid, 1, backend).activationBytes;
  // Blocks recomputed during backward: one block's intermediates live at a time, plus each block's
  // saved input and output.
  return entry.estimate({ ...config, depth: 1 }, m.grid, 1, backend).activationBytes + 2 * 4 * m.depth * N * m.width;
}

const gib = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;

/** The largest micro-batch (dividing nothing in particular: the last one may be smaller) that fits. */
export function planMemory(m: MemoryInput, batchSize: number, backend: string, microBatch: number | 'auto' = 'auto'): MemoryPlan {
  const capBytes = capFor(backend);
  const perSampleBytes = perSampleActivationBytes(m, backend);
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

// ---- Before anything is allocated: the whole run's needs from its configuration -------------------

/** What the data of a run hold, known from the configuration before they exist. */
export interface DataShape {
  grid: number[];
  /** Model input channels (data channels + coordinates) and target channels of a sample. */
  xChannels: number;
  yChannels: number;
  /** The model's output channels (autoregressive: one frame). */
  outChannels: number;
  samples: number;
  rollout?: { tOut: number };
  /** Copies alive at the peak of preparation (synthetic data: generated fields + packed splits). */
  copies: number;
}

/** The data a synthetic spec will produce (the other kinds are known only once read). */
export function syntheticShape(spec: { task: 'operator' | 'autoregressive'; grid: number[]; train: number; val: number; test?: number; tIn?: number; tOut?: number }): DataShape {
  const ar = spec.task === 'autoregressive';
  const cx = ar ? spec.tIn ?? 3 : 1;
  const cy = ar ? spec.tOut ?? 3 : 1;
  return {
    grid: spec.grid,
    xChannels: cx + spec.grid.length,
    yChannels: cy,
    outChannels: 1,
    samples: spec.train + spec.val + (spec.test ?? 0),
    ...(ar ? { rollout: { tOut: cy } } : {}),
    copies: 2,
  };
}

/** float32 bytes of the data at their peak: samples x points x channels x 4 (x copies). */
export function dataBytes(s: DataShape): number {
  const points = s.grid.reduce((a, b) => a * b, 1);
  return s.samples * points * (s.xChannels + s.yChannels) * 4 * s.copies;
}

/** The memory the machine lends a run's data and (native backends) its tensors. */
export function ramBytes(): number {
  return Math.floor(totalmem() * 0.7);
}

// a type, not an interface: it passes as the registry's Record<string, unknown> run model
export type ModelSizing = {
  kind?: string;
  modes?: number;
  width: number;
  depth: number;
  scattering: 'efficient' | 'full' | 'standard';
  components: string[];
};

export interface RunSizing {
  model: ModelSizing;
  batchSize: number;
  microBatch: number | 'auto';
  checkpointBlocks: boolean | 'auto';
  rollout: { checkpointing: boolean };
}

/**
 * The step plan for a run, with block recomputation when the configuration asks for it ('auto':
 * only when the whole batch, or the configured micro-batch, would not fit otherwise).
 */
export function choosePlan(input: Omit<MemoryInput, 'checkpointBlocks'>, cfg: RunSizing, backend: string, canCheckpointBlocks: boolean): { plan: MemoryPlan; checkpointBlocks: boolean } {
  let checkpointBlocks = cfg.checkpointBlocks === true && canCheckpointBlocks;
  let plan = planMemory({ ...input, checkpointBlocks }, cfg.batchSize, backend, cfg.microBatch);
  const wanted = Math.min(cfg.batchSize, cfg.microBatch === 'auto' ? cfg.batchSize : cfg.microBatch);
  if (cfg.checkpointBlocks === 'auto' && canCheckpointBlocks && (!plan.fits || plan.microBatch < wanted)) {
    const withBlocks = planMemory({ ...input, checkpointBlocks: true }, cfg.batchSize, backend, cfg.microBatch);
    if (withBlocks.fits && (!plan.fits || withBlocks.microBatch > plan.microBatch)) {
      plan = withBlocks;
      checkpointBlocks = true;
    }
  }
  return { plan, checkpointBlocks };
}

export interface Preflight {
  fits: boolean;
  /** The configuration field to lower when it does not fit. */
  field?: string;
  message: string;
  /** Parameters counted from the configuration (not from a built model). */
  params: number;
  plan?: MemoryPlan;
  checkpointBlocks?: boolean;
}

/**
 * Refuses, from the configuration alone, a run whose parameters, data or training step cannot fit:
 * parameters and optimizer state (16 bytes per parameter, counted from width/depth/components),
 * the data (when their shape is known) and one step's activations. Nothing is allocated.
 */
export function preflightMemory(cfg: RunSizing, backend: string, shape: DataShape | null): Preflight {
  const cap = capFor(backend);
  const ram = ramBytes();
  const m = cfg.model;
  const entry = modelEntry(m.kind ?? 'lino');
  const modelConfig = entry.fromRun(m, { dims: shape?.grid.length === 2 ? 2 : 1, inChannels: shape?.xChannels ?? 1, outChannels: shape?.outChannels ?? 1, seed: 0, ...(shape ? { grid: shape.grid } : {}) });
  const params = entry.paramCount(modelConfig);
  const fixed = 16 * params;
  if (fixed > Math.min(cap, ram)) {
    return {
      fits: false,
      field: 'model.width',
      params,
      message: `does not fit: the model has ${params.toLocaleString('en-US')} parameters (width ${m.width}, depth ${m.depth}); with their gradients and optimizer state they need ${gib(fixed)}, the ${backend} backend allows ${gib(Math.min(cap, ram))}. Lower model.width or model.depth.`,
    };
  }
  if (!shape) return { fits: true, params, message: `parameters and optimizer state: ${gib(fixed)} (${backend} limit ${gib(Math.min(cap, ram))})` };
  const data = dataBytes(shape);
  const points = shape.grid.reduce((a, b) => a * b, 1);
  const dataWhat = `${shape.samples.toLocaleString('en-US')} samples x ${shape.grid.join('x')} points x ${shape.xChannels + shape.yChannels} channels x 4 bytes${shape.copies > 1 ? ` x ${shape.copies} copies while they are made` : ''}`;
  if (data > ram) {
    return {
      fits: false,
      field: 'data.train',
      params,
      message: `does not fit: the data need ${gib(data)} (${dataWhat}), this machine allows ${gib(ram)}. Lower data.train (or data.val, data.test, data.grid).`,
    };
  }
  const input = { ...m, modelConfig, inChannels: shape.xChannels, outChannels: shape.outChannels, params, grid: shape.grid, ...(shape.rollout ? { rollout: { tOut: shape.rollout.tOut, checkpointing: cfg.rollout.checkpointing } } : {}) };
  const { plan, checkpointBlocks } = choosePlan(input, cfg, backend, entry.forwardCheckpointed !== undefined);
  if (!plan.fits) return { fits: false, field: 'model.width', params, plan, checkpointBlocks, message: plan.message };
  // Native and cpu backends keep tensors in the same memory as the data.
  if (backend !== 'wasm' && data + plan.estimateBytes > ram) {
    return {
      fits: false,
      field: 'data.train',
      params,
      plan,
      checkpointBlocks,
      message: `does not fit: the data (${gib(data)}, ${dataWhat}) and one training step (${gib(plan.estimateBytes)}) need ${gib(data + plan.estimateBytes)}, this machine allows ${gib(ram)}. Lower data.train, the grid (${points} points) or the model.`,
    };
  }
  return { fits: true, params, plan, checkpointBlocks, message: `data ${gib(data)}; ${plan.message}` };
}

/**
 * float32 bytes a benchmark generator allocates for its arrays (the published layouts: Darcy coeff
 * and sol [N,s,s], Burgers a and u [N,s], Navier-Stokes a [N,s,s] and u [N,s,s,T], airfoil X, Y
 * [N,ni,nj] and Q [N,5,ni,nj]), times two for the pipeline's prepared copy. Null when the generator
 * will refuse the options itself (it says why better).
 */
export function generatedBytes(spec: { benchmark: BenchmarkName; preset: PresetName; samples?: number; generateResolution?: number; frames?: number }): { bytes: number; what: string } | null {
  let p;
  try {
    p = resolveParams(spec.benchmark, { preset: spec.preset, ...(spec.samples !== undefined ? { samples: spec.samples } : {}), ...(spec.generateResolution !== undefined ? { resolution: spec.generateResolution } : {}), ...(spec.frames !== undefined ? { frames: spec.frames } : {}) });
  } catch {
    return null;
  }
  let perSample: number;
  let grid: string;
  switch (p.benchmark) {
    case 'darcy': perSample = 2 * p.resolution ** 2; grid = `${p.resolution}x${p.resolution} x 2 fields`; break;
    case 'burgers': perSample = 2 * p.resolution; grid = `${p.resolution} points x 2 fields`; break;
    case 'navier-stokes': perSample = p.resolution ** 2 * (p.frames + 1); grid = `${p.resolution}x${p.resolution} x ${p.frames + 1} frames`; break;
    case 'airfoil': perSample = 7 * p.ni * p.nj; grid = `${p.ni}x${p.nj} x 7 fields`; break;
  }
  return { bytes: p.samples * perSample * 4 * 2, what: `${p.samples.toLocaleString('en-US')} samples x ${grid} x 4 bytes x 2 copies (generated, prepared)` };
}
