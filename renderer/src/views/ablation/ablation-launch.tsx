// The Ablation view's launch card: seeds per variant, the backend the variants train on (the
// Training view's picker), Launch, and each variant's seed group with its runs' states.
import { useState } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { useAblation } from '../../stores/ablation-store';
import { groupLabel } from '../../logic/ablation-plan';
import { launchLabel, variantsToLaunch, type AblationPlanRow } from '../../logic/ablation-view-data';
import { NumberField } from '../../components/number-field';
import { BackendPicker } from '../../components/backend-picker';
import { BACKEND_CHOICES, choiceOf, choiceProblem, withBackend, type BackendChoice } from '../../logic/backend-choice';
import { useTorchProbe } from '../../queries/torch-probe';
import { oneOf, usePersisted } from '../../stores/persisted-state';

type PlanRow = AblationPlanRow;

export interface AblationLaunchProps {
  /** The base run's name, for the heading (the key is an id). */
  runName: string;
  plan: PlanRow[] | null;
  runs: RunSummary[];
  seeds: number;
  seedsValid: boolean;
  onSeeds(v: number): void;
  onLaunched(): void;
}

export function AblationLaunch({ runName, plan, runs, seeds, seedsValid, onSeeds, onLaunched }: AblationLaunchProps) {
  const launchVariants = useAblation((s) => s.launch);
  const [launching, setLaunching] = useState(false);
  const [launchError, setLaunchError] = useState<string | null>(null);
  const [backend, setBackend] = usePersisted<BackendChoice>('ablation.backend', 'engine', oneOf(...BACKEND_CHOICES));
  const probe = useTorchProbe().value;
  const backendProblem = probe ? choiceProblem(backend, probe) : null;
  const toLaunch = variantsToLaunch(plan);
  // what the base run trained on, when the variants would train elsewhere (they inherit everything else)
  const baseChoice = toLaunch[0]?.config ? choiceOf(toLaunch[0].config as { backend?: unknown; torch?: { device?: unknown } }) : null;
  const launch = async () => {
    if (toLaunch.length === 0 || backendProblem) return;
    setLaunching(true);
    setLaunchError(null);
    setLaunchError(await launchVariants(toLaunch.map((p) => withBackend(p.config!, backend)), seeds));
    setLaunching(false);
    onLaunched();
  };
  return (
    <div className="card ablation-launch">
      <h2>Variants of {runName}</h2>
      <div className="row wrap">
        <NumberField label="Seeds per variant" inline value={seeds} onChange={onSeeds} min={1} max={20} width="5em" error={seedsValid ? null : 'Seeds must be a whole number from 1 to 20.'} testId="ablation-seeds" />
        <button onClick={() => void launch()} disabled={!plan || launching || toLaunch.length === 0 || backendProblem !== null} data-testid="ablation-launch">
          {launching ? 'Queuing…' : launchLabel(toLaunch.length, seeds)}
        </button>
        {launchError && <span className="error-message" role="alert">{launchError}</span>}
      </div>
      <BackendPicker value={backend} onChange={setBackend} probe={probe} testId="ablation-backend" />
      {baseChoice && baseChoice !== backend && <p className="small muted" data-testid="ablation-backend-base">The base run trained on {baseChoice === 'engine' ? 'the workbench engine' : `PyTorch (${baseChoice.slice(6)})`}; the variants train on the backend chosen here.</p>}
      {backendProblem && <p className="error-message" role="alert">Backend: {backendProblem}</p>}
      {plan && (
        <ul className="ablation-progress" data-testid="ablation-progress">
          {plan.map((p) => (
            <li key={p.variant.key} data-testid={`ablation-progress-${p.variant.key}`}>
              <strong>{p.variant.label}</strong> <code title={p.group}>{groupLabel(p.group, runs)}</code>{p.reuse ? ' (the base run\'s own seed group)' : ''}:{' '}
              {!p.config ? (
                <span className="muted">not applicable (this component is already off in the base run)</span>
              ) : p.members.length === 0 ? (
                <span className="muted">not launched</span>
              ) : (
                p.members.map((m) => (
                  <span key={m.id} className={`state state-${m.state}`} title={m.reason ?? m.name}>
                    seed {m.seed ?? '?'}: {m.state}{m.state === 'running' ? ` ${m.epochsDone}/${m.epochs ?? '?'}` : ''}
                  </span>
                ))
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
