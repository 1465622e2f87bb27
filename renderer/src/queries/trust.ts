// The trust panel's reads (components/trust-panel.tsx): playground.trust for one input (the spread over
// the run's seed group, the distance to the training inputs), asked when the user asks; and training a
// seed group of a run that has none (the same configuration, three seeds).
import type { PlaygroundFields, PlaygroundTrust } from '../../../main/api/contract';
import { useQuery, type Query } from './use-query';
import { useTraining } from '../stores/training-store';
import { inheritedConfig } from '../logic/ablation-plan';

/** The trust answer for `input` once `asked` names it (null: not asked yet). */
export function useTrust(runId: string, input: PlaygroundFields, asked: string | null): Query<PlaygroundTrust> {
  return useQuery(asked ? `trust|${runId}|${asked}` : null, (a) => a.call('playground.trust', { id: runId, input }));
}

/** Seeds a group started from the trust panel holds. */
export const GROUP_SEEDS = 3;

/** Starts the run's configuration as a seed group of GROUP_SEEDS runs (seed, seed + 1, ...); answers the first run's id. */
export function trainSeedGroup(config: Record<string, unknown>, name: string): Promise<string> {
  const seed = typeof config.seed === 'number' ? config.seed : 1;
  return useTraining.getState().start({ config: { ...inheritedConfig(config), seed, name: `${name} seeds`.slice(0, 180) } as never, seeds: GROUP_SEEDS });
}
