// The Workspace view's card for the workspace setting "headline relL2": which convention Fields,
// Rollout, Runs, Compare, Sweeps, Ablation, Reproduce and the Playground put first (each names it).
import { useId } from 'react';
import { RELL2_HEADLINES } from '../../../../main/api/contract';
import { RELL2_CONVENTIONS } from '../../export/table';
import { saveRelL2Headline, useRelL2Headline } from '../../queries/rell2-headline';

export function RelL2Setting() {
  const id = useId();
  const h = useRelL2Headline();
  return (
    <div className="card" data-testid="rell2-setting">
      <h2>Headline relL2</h2>
      <p className="muted small">relL2 = ||prediction − truth|| / ||truth|| per sample. Every view shows this convention first and names it; tables and exports keep both.</p>
      <label htmlFor={`${id}-h`}>Headline convention</label>{' '}
      <select id={`${id}-h`} data-testid="rell2-headline" value={h} onChange={(e) => void saveRelL2Headline(e.target.value as typeof h)}>
        {RELL2_HEADLINES.map((c) => <option key={c} value={c}>{c}</option>)}
      </select>
      {/* the convention's meaning beside the short name: as option text it made the select wider than the view at 1366 px */}
      <p className="muted small" data-testid="rell2-headline-meaning">{h}: {RELL2_CONVENTIONS[h]}</p>
    </div>
  );
}
