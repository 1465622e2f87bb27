// "Correlation with |∇a|" in the Light maps view: per block, Pearson r of each map with the
// coefficient interface indicator over the validation split (pooled; each sample's own r as
// mean ± std), computed by a job with progress and cancel, exported as CSV or LaTeX in the layout
// of `lino lightmaps --correlate`.
import { useId } from 'react';
import { LIGHT_MAP_CORRELATED } from '../../../../main/api/contract';
import { CORRELATED_MAP_LABELS, correlationTable } from '../../../../main/api/light-map-correlation-table';
import { formatNumber } from '../../export/table';
import { TableExportBar } from '../../export/table-export-bar';
import { JobProgress } from '../../components/job-progress';
import { useLightMapsCorrelation } from '../../stores/light-maps-correlation';

const r = (v: number | null) => (v === null ? 'NaN' : formatNumber(v, 3));

export function CorrelationSection({ runId, checkpoint }: { runId: string; checkpoint: 'best' | 'last' }) {
  const id = useId();
  const { job, result, error, busy, compute } = useLightMapsCorrelation({ runId, checkpoint });
  const shown = result && result.runId === runId ? result : null;
  const exported = shown ? correlationTable(shown) : null;
  return (
    <section className="card" aria-labelledby={`${id}-t`} data-testid="lightmaps-correlation">
      <h2 id={`${id}-t`}>Correlation with |∇a|</h2>
      <p className="muted">
        Does a block act near coefficient interfaces? Per block, Pearson r of each map with |∇a| (finite differences of the coefficient, input channel 0) over every validation sample: pooled over all points, and each sample&apos;s own r as mean ± std. Darcy runs only.
      </p>
      <div className="row">
        <button onClick={compute} disabled={busy} data-testid="lightmaps-correlation-compute">{shown ? 'Compute again' : 'Compute'}</button>
        <JobProgress job={job} label="Correlation" testId="lightmaps-correlation-progress" />
      </div>
      {error && <p role="alert" className="error" data-testid="lightmaps-correlation-error">{error}</p>}
      {shown && exported && (
        <>
          <p className="muted" data-testid="lightmaps-correlation-samples">{shown.samples} samples ({shown.split}, {shown.checkpoint} checkpoint); each cell: pooled r, then mean ± std of the samples&apos; r.</p>
          <div style={{ overflowX: 'auto' }}>
            <table className="runs-table" data-testid="lightmaps-correlation-table">
              <thead>
                <tr>
                  <th scope="col">block</th>
                  {LIGHT_MAP_CORRELATED.map((k) => <th key={k} scope="col" className="num">{CORRELATED_MAP_LABELS[k]}</th>)}
                </tr>
              </thead>
              <tbody>
                {shown.blocks.map(({ block, maps }) => (
                  <tr key={block}>
                    <th scope="row">{block + 1}</th>
                    {LIGHT_MAP_CORRELATED.map((k) => {
                      const c = maps.find((m) => m.map === k);
                      return (
                        <td key={k} className="num" data-testid={`correlation-${block}-${k}`} data-pooled={c?.pooled ?? undefined} title={c ? `${c.n} samples with a defined r` : 'branch switched off'}>
                          {c ? <><strong>{r(c.pooled)}</strong> <span className="muted">({r(c.mean)} ± {r(c.std)})</span></> : '—'}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <TableExportBar title={`Light-map correlation with grad a, run ${shown.runId}`} columns={exported.columns} rows={exported.rows} />
        </>
      )}
    </section>
  );
}
