import { useEffect } from 'react';
import { oneOf, usePersisted } from '../../stores/persisted-state';
import { useTraining } from '../../stores/training-store';
import { useAblation } from '../../stores/ablation-store';
import { RunPicker } from '../../components/run-picker';
import { parseNumberText } from '../../components/number-field';
import { useAblationPlan } from './use-ablation-plan';
import { AblationLaunch } from './ablation-launch';
import { AblationTable } from './ablation-table';
import { AblationBars } from './ablation-bars';
import { AblationFields } from './ablation-fields';
import { AblationBranchSpectra } from './ablation-branch-spectra';
import { ablationCaption } from '../../logic/ablation-results';
import { hasLightMechanisms, noMechanismsText } from '../../logic/model-kind';

/**
 * The ablation explorer: from any run, train the full model and the "without reflection /
 * refraction / scattering" variants as seed groups (one sweep: a grid over the components), then
 * compare them (table, bars with ±1 std, LaTeX/CSV) and draw their error fields for the same
 * samples (the paper's Table 3 and Fig. 3).
 */
export function AblationView() {
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [seedsText, setSeedsText] = usePersisted<string>('ablation.seeds', '3', (v) => typeof v === 'string' && v.length <= 4);
  // Linear by default: on a log axis errors a few percent apart drew as bars of one height.
  const [barScale, setBarScale] = usePersisted<'linear' | 'log'>('ablation.barScale', 'linear', oneOf('linear', 'log'));
  const seeds = parseNumberText(seedsText);
  const seedsValid = Number.isInteger(seeds) && seeds >= 1 && seeds <= 20;
  const { runs, base, key, runName, dataName, plan, rows, paper, configError, groupError } = useAblationPlan(seeds, seedsValid);
  const params = useAblation((s) => (key ? (s.params[key] ?? null) : null));

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  return (
    <section aria-labelledby="ablation-title" className="ablation-view">
      <h1 id="ablation-title">Ablation</h1>
      <p className="muted">
        Train the base run's configuration without reflection, without refraction and without scattering (and the full model) as seed groups, launched as one sweep over the components (it appears in Sweeps), then compare them as in the paper's Table 3 and Fig. 3.
      </p>
      <RunPicker />
      {/* The variants switch LiNO's components off: a baseline has none to ablate, so nothing is planned for it. */}
      {base && !hasLightMechanisms(base) && (
        <p className="card" role="status" data-testid="ablation-not-lino">
          {noMechanismsText(base, 'components to ablate')} To compare it with LiNO, train both on the same data and read the Runs and Export tables.
        </p>
      )}
      {configError && <p className="error-message" role="alert">{configError}</p>}
      {base && key && hasLightMechanisms(base) && (
        <AblationLaunch
          runName={runName ?? key}
          plan={plan}
          runs={runs}
          seeds={seeds}
          seedsValid={seedsValid}
          onSeeds={(v) => setSeedsText(Number.isNaN(v) ? '' : String(v))}
          onLaunched={() => void refreshRuns()}
        />
      )}
      {groupError && <p className="error-message" role="alert">{groupError}</p>}
      {key && base && hasLightMechanisms(base) && rows.some((r) => r.members.length > 0) && (
        <>
          <h2>Results</h2>
          <AblationTable ablationKey={key} rows={rows} seeds={seeds} paper={paper} params={params} caption={ablationCaption({ runName: runName ?? key, dataName, seeds, paperSetting: paper?.setting ?? null })} />
          <AblationBars runName={runName ?? key} measuredTitle={`measured here${dataName ? `: ${dataName}` : ''}`} rows={rows} paper={paper} scale={barScale} onScale={setBarScale} />
          <AblationFields ablationKey={key} rows={rows} />
          <AblationBranchSpectra ablationKey={key} rows={rows} />
        </>
      )}
    </section>
  );
}
