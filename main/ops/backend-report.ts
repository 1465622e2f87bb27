// Which backend the engine runs (main/ops/backend.ts): zod schema only, re-exported by main/api/contract.ts.
import { z } from 'zod';

/** Which TensorFlow.js backend the engine runs and why the ones before it were skipped (main/ops/backend.ts). */
export const BackendReport = z.object({
  active: z.string(),
  tfBackend: z.string(),
  attempts: z.array(z.object({ name: z.string(), ok: z.boolean(), reason: z.string() })),
  /** webgpu: the GPU adapter it runs on (fallback: a software one such as SwiftShader). */
  adapter: z.object({ vendor: z.string(), architecture: z.string(), device: z.string(), description: z.string(), fallback: z.boolean() }).optional(),
});
export type BackendReport = z.infer<typeof BackendReport>;
