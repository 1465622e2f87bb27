// model.estimate's answer: zod schema only, re-exported for the renderer by main/api/contract.ts.
import { z } from 'zod';

export const ModelEstimate = z.object({
  params: z.number(),
  forwardFlops: z.number(),
  trainStepFlops: z.number(),
  paramStateBytes: z.number(),
  activationBytes: z.number(),
  peakBytes: z.number(),
  /** The wasm backend's address space (4 GiB): a step needing more cannot run there. */
  wasmLimitBytes: z.number(),
  exceedsWasm: z.boolean(),
  /** What the numbers come from: the model's estimate code, or a real model instance. */
  source: z.string(),
  /** Channels the model actually sees (data channels + coordinates when on). */
  inChannels: z.number(),
  /** Peak memory and FLOPs of one step for square grids of other sizes, same batch. */
  sweep: z.array(z.object({ side: z.number(), peakBytes: z.number(), trainStepFlops: z.number() })),
});
export type ModelEstimate = z.infer<typeof ModelEstimate>;
