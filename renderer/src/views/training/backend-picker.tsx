// The Training view's backend picker: the workbench's own engine, or PyTorch (cpu, cuda, mps) through
// the Python the engine found. A torch choice the probe rules out is shown disabled, with why and how
// to install PyTorch.
import { useId } from 'react';
import { BACKEND_CHOICES, choiceProblem, type BackendChoice } from '../../queries/torch-probe';
import type { TorchReport } from '../../../../main/api/contract';

const LABEL: Record<BackendChoice, string> = {
  engine: 'Workbench engine (default)',
  'torch:cpu': 'PyTorch, CPU',
  'torch:cuda': 'PyTorch, CUDA GPU',
  'torch:mps': 'PyTorch, Apple MPS',
};

export function BackendPicker({ value, onChange, probe }: { value: BackendChoice; onChange: (v: BackendChoice) => void; probe: TorchReport | null }) {
  const id = useId();
  const torchProblem = probe && !probe.ok ? probe.problem : null;
  const gib = (b: number) => `${(b / 1024 ** 3).toFixed(0)} GiB`;
  return (
    <div className="field">
      <label htmlFor={`${id}-b`}>Backend</label>
      <select id={`${id}-b`} data-testid="train-backend" value={value} onChange={(e) => onChange(e.target.value as BackendChoice)}>
        {BACKEND_CHOICES.map((c) => {
          const problem = choiceProblem(c, probe);
          return <option key={c} value={c} disabled={problem !== null} data-testid={`train-backend-${c}`}>{LABEL[c]}{problem && c !== 'engine' ? ` (unavailable: ${problem})` : ''}</option>;
        })}
      </select>
      {probe?.ok && (
        <p className="small muted" data-testid="train-backend-torch">
          PyTorch {probe.torch} at {probe.executable ?? probe.python}: {[...probe.cuda.map((g) => `${g.name} (${gib(g.memoryBytes)})`), ...(probe.mps ? ['MPS'] : []), `CPU, ${probe.cpuThreads ?? '?'} threads`].join(', ')}
        </p>
      )}
      {torchProblem && (
        <p className="small muted" data-testid="train-backend-why">
          PyTorch is unavailable: {torchProblem}. {probe?.install}
        </p>
      )}
    </div>
  );
}
