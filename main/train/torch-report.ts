// What the PyTorch probe found (main/train/torch-probe.ts): zod schema only, so the host, the
// renderer and engine.info share it without loading child_process.
import { z } from 'zod';

/** The oldest torch the scaleout package is tested with (docs/scaleout.md). */
export const MIN_TORCH = [1, 13] as const;

export const TORCH_INSTALL_HINT =
  'Install PyTorch (>= 1.13) and NumPy into a Python 3 (https://pytorch.org/get-started/locally/, e.g. `python3 -m pip install torch numpy`), ' +
  'then point the workbench at that interpreter: the Workspace view\'s PyTorch card, or LINO_PYTHON=/path/to/python.';

export const TorchReport = z.object({
  /** The interpreter command probed (LINO_PYTHON, the workspace setting, or python3). */
  python: z.string(),
  /** True when runs can train on torch through this interpreter. */
  ok: z.boolean(),
  /** Why not, in words (python missing, torch missing or too old, garbage output, a hang). */
  problem: z.string().optional(),
  /** How to fix it, when ok is false. */
  install: z.string().optional(),
  pythonVersion: z.string().optional(),
  executable: z.string().optional(),
  torch: z.string().optional(),
  numpy: z.string().optional(),
  cuda: z.array(z.object({ name: z.string(), memoryBytes: z.number() })).default([]),
  mps: z.boolean().default(false),
  cpuThreads: z.number().int().optional(),
  /** torchrun next to the interpreter (several GPUs). */
  torchrun: z.boolean().default(false),
  probeMs: z.number().optional(),
});
export type TorchReport = z.infer<typeof TorchReport>;

/** The torch devices a run can ask for. */
export const TORCH_DEVICES = ['cpu', 'cuda', 'mps'] as const;
export type TorchDevice = (typeof TORCH_DEVICES)[number];

/** The device a run on this interpreter uses when it does not name one: CUDA, then MPS, then the CPU. */
export function defaultTorchDevice(r: TorchReport): TorchDevice {
  return r.cuda.length > 0 ? 'cuda' : r.mps ? 'mps' : 'cpu';
}

/** Why `device` (with `gpus`) cannot run on this interpreter, or null. */
export function torchDeviceProblem(r: TorchReport, device: TorchDevice, gpus = 1): string | null {
  if (!r.ok) return r.problem ?? 'PyTorch is not available';
  if (device === 'cuda' && r.cuda.length === 0) return `torch ${r.torch} at ${r.python} sees no CUDA GPU`;
  if (device === 'cuda' && gpus > r.cuda.length) return `${gpus} GPUs asked, torch ${r.torch} at ${r.python} sees ${r.cuda.length}`;
  if (device === 'mps' && !r.mps) return `torch ${r.torch} at ${r.python} has no Apple MPS device`;
  if (device !== 'cuda' && gpus > 1) return `gpus ${gpus} needs device cuda (got ${device})`;
  return null;
}

/** One line for logs, `lino info --env` and the Workspace view. */
export function formatTorchReport(r: TorchReport): string {
  if (!r.ok) return `PyTorch (${r.python}): not available: ${r.problem}\n  ${r.install ?? TORCH_INSTALL_HINT}`;
  const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;
  const devices = [
    ...r.cuda.map((g, i) => `cuda:${i} ${g.name} (${gib(g.memoryBytes)})`),
    ...(r.mps ? ['mps'] : []),
    `cpu (${r.cpuThreads ?? '?'} threads)`,
  ];
  return `PyTorch ${r.torch} (numpy ${r.numpy}, Python ${r.pythonVersion} at ${r.executable ?? r.python}): ${devices.join(', ')}${r.torchrun ? '' : '; no torchrun (one GPU per run)'}`;
}
