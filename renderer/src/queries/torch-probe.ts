// PyTorch as the engine's probe found it (train.torch): the Training view's backend picker offers
// the torch devices it reports and says why and how to install when it is not usable.
import type { TorchReport } from '../../../main/api/contract';
import { useQuery } from './use-query';
import { useApp } from '../stores/app-store';

export const useTorchProbe = () => useQuery('train.torch', (a) => a.call('train.torch', {}));

/** The backends the Training view offers: the engine's own, or torch on one device. */
export const BACKEND_CHOICES = ['engine', 'torch:cpu', 'torch:cuda', 'torch:mps'] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];

/** Why a choice cannot be used with this probe (null: it can; undefined probe: still probing). */
export function choiceProblem(choice: BackendChoice, probe: TorchReport | null): string | null {
  if (choice === 'engine') return null;
  if (!probe) return 'looking for PyTorch…';
  if (!probe.ok) return probe.problem ?? 'PyTorch is not available';
  if (choice === 'torch:cuda' && probe.cuda.length === 0) return `torch ${probe.torch} sees no CUDA GPU`;
  if (choice === 'torch:mps' && !probe.mps) return `torch ${probe.torch} has no Apple MPS device`;
  return null;
}

/** The run config's part for a choice. */
export function backendConfig(choice: BackendChoice): { backend?: string; torch?: { device: 'cpu' | 'cuda' | 'mps' } } {
  if (choice === 'engine') return {};
  return { backend: 'torch', torch: { device: choice.slice(6) as 'cpu' | 'cuda' | 'mps' } };
}

/** The stored interpreter setting and LINO_PYTHON (which wins over it). */
export const usePythonSetting = () => useQuery('settings.python', (a) => a.call('settings.python', {}));

/** Stores the interpreter (null: back to the default) and probes it again; answers the new probe. */
export async function savePythonSetting(python: string | null): Promise<TorchReport> {
  const api = useApp.getState().api;
  if (!api) throw new Error('not connected to the workbench');
  await api.call('settings.python', { python });
  return api.call('train.torch', { refresh: true });
}
