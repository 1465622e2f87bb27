// The source of the data at the other grids: solved there by the generator (a super-resolution
// test) or resampled from the native grid; "solved" is disabled, with the reason shown, for data the
// generator did not make (an imported file).
import { useId } from 'react';
import type { TransferSource } from '../../../../main/api/contract';
import type { SolvedChoice } from './transfer-choice';

export function TransferSourcePicker({ source, onSource, choice }: { source: TransferSource; onSource(s: TransferSource): void; choice: SolvedChoice }) {
  const id = useId();
  return (
    <div className="row wrap">
      <label htmlFor={id}>Data at the other grids</label>
      <select id={id} value={source} onChange={(e) => onSource(e.target.value as TransferSource)} data-testid="fields-source">
        <option value="solved" disabled={!choice.ok}>solved at N by the generator</option>
        <option value="resampled">resampled from the training grid (interpolated; not a super-resolution test)</option>
      </select>
      {!choice.ok && <span className="muted small" data-testid="fields-source-why">Only resampling: {choice.why}</span>}
    </div>
  );
}
