// The backend a view trains on (Training, Ablation, Reproduce): the workbench's own engine or
// PyTorch on one device, why a choice cannot be used with the engine's probe, what it puts into a run
// configuration, and how the measured torch speed reads. Pure, so the three views share one meaning.
import type { TorchReport, TorchSpeed } from '../../../main/api/contract';

/** The backends the views offer: the engine's own, or torch on one device. */
export const BACKEND_CHOICES = ['engine', 'torch:cpu', 'torch:cuda', 'torch:mps'] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];
export type TorchChoiceDevice = 'cpu' | 'cuda' | 'mps';

/** The torch device of a choice; null for the engine. */
export function choiceDevice(choice: BackendChoice): TorchChoiceDevice | null {
  return choice === 'engine' ? null : (choice.slice(6) as TorchChoiceDevice);
}

/** Why a choice cannot be used with this probe (null: it can; a null probe: still probing). */
export function choiceProblem(choice: BackendChoice, probe: TorchReport | null): string | null {
  if (choice === 'engine') return null;
  if (!probe) return 'looking for PyTorch…';
  if (!probe.ok) return probe.problem ?? 'PyTorch is not available';
  if (choice === 'torch:cuda' && probe.cuda.length === 0) return `torch ${probe.torch} sees no CUDA GPU`;
  if (choice === 'torch:mps' && !probe.mps) return `torch ${probe.torch} has no Apple MPS device`;
  return null;
}

/** The run config's part for a choice. */
export function backendConfig(choice: BackendChoice): { backend?: string; torch?: { device: TorchChoiceDevice } } {
  const device = choiceDevice(choice);
  return device ? { backend: 'torch', torch: { device } } : {};
}

/**
 * A stored configuration (an ablation's base run) on `choice`: torch on that device, or the engine,
 * which drops the base's torch settings but keeps an engine backend it named (wasm, cpu, webgpu).
 */
export function withBackend<C extends Record<string, unknown>>(config: C, choice: BackendChoice): C {
  const { backend, torch: _torch, ...rest } = config as Record<string, unknown>;
  if (choice !== 'engine') return { ...rest, ...backendConfig(choice) } as unknown as C;
  return (backend !== undefined && backend !== 'torch' ? { ...rest, backend } : rest) as C;
}

/** The backend a stored configuration trains on, as a choice (a torch run without a device: CPU). */
export function choiceOf(config: { backend?: unknown; torch?: { device?: unknown } } | null | undefined): BackendChoice {
  if (config?.backend !== 'torch') return 'engine';
  const d = config.torch?.device;
  return d === 'cuda' || d === 'mps' ? `torch:${d}` : 'torch:cpu';
}

/** The reproduce.start `backend` of a choice (undefined: the engine). */
export function reproduceBackend(choice: BackendChoice): 'torch:cpu' | 'torch:cuda' | 'torch:mps' | undefined {
  return choice === 'engine' ? undefined : choice;
}

/** "2.1× faster" / "1.6× slower" (one decimal; two under 1.1 so that 1.04 does not read as 1.0). */
export function speedRatioText(ratio: number): string {
  if (!(ratio > 0) || !Number.isFinite(ratio)) return 'not comparable';
  const r = ratio >= 1 ? ratio : 1 / ratio;
  const digits = r < 1.1 ? 2 : 1;
  return `${r.toFixed(digits)}× ${ratio >= 1 ? 'faster' : 'slower'}`;
}

/** The picker's line for a measurement: "torch cpu: 2.1× faster than wasm here (24 ms against 51 ms a step), measured 16:02 on a LiNO 32² step". */
export function speedText(s: TorchSpeed, clock: (iso: string) => string): string {
  const ms = (v: number) => `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ms`;
  return `torch ${s.device}: ${speedRatioText(s.speedup)} than ${s.engineBackend} here (${ms(s.torchMsPerStep)} against ${ms(s.engineMsPerStep)} a step), measured ${clock(s.measuredAt)} on a ${s.caseLabel} step`;
}
