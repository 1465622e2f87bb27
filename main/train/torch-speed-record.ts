// What the backend picker's "x× faster" rests on: one measured comparison of a few training steps of
// a small fixed LiNO case on PyTorch (a device) and on the engine's own backend, on this machine
// (main/train/torch-speed.ts measures it). Zod schemas only, so the renderer reads them through main/api.
import { z } from 'zod';
import { TORCH_DEVICES } from './torch-report';

export const TorchSpeed = z.object({
  /** The interpreter that ran torch (its resolved executable, else the command). */
  python: z.string().max(4096),
  torch: z.string().max(200),
  device: z.enum(TORCH_DEVICES),
  /** torch's intra-op threads in the measurement (a run has the same default). */
  threads: z.number().int().min(0).max(4096),
  /** The engine's backend the same step was timed on (wasm, cpu, webgpu, tensorflow). */
  engineBackend: z.string().max(64),
  /** The fixed case, in words: "LiNO 32² (width 32, depth 4, batch 4)". */
  caseLabel: z.string().max(200),
  /** Timed steps on each side, after one warm-up step. */
  steps: z.number().int().min(1).max(100),
  /** Median step on each side, and the warm-up (first) step. */
  torchMsPerStep: z.number().positive().finite(),
  engineMsPerStep: z.number().positive().finite(),
  torchWarmupMs: z.number().min(0).finite(),
  engineWarmupMs: z.number().min(0).finite(),
  /** engineMsPerStep / torchMsPerStep: above 1 torch is faster. */
  speedup: z.number().positive().finite(),
  /** When it was measured (ISO time). */
  measuredAt: z.string().max(64),
});
export type TorchSpeed = z.infer<typeof TorchSpeed>;

/** The workspace's measurements (.lino/torch-speed.json), one per interpreter, torch, device and engine backend. */
export const TorchSpeedFile = z.object({ format: z.literal('lino-torch-speed'), version: z.literal(1), entries: z.array(TorchSpeed).max(64) }).strict();
export type TorchSpeedFile = z.infer<typeof TorchSpeedFile>;
