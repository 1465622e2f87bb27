// Accuracy against cost (docs/diagnostics.md): the built-in Darcy solver at several resolutions and
// the chosen run, timed in one engine job on this machine; a log-log figure of error against seconds
// per sample, and the table (CSV/LaTeX).
import type { RunSummary } from '../../../../main/api/contract';
import { useCost } from '../../stores/cost';
import { JobProgress } from '../../components/job-progress';
import { Plot } from '../../plots/plot';
import { costTraces } from '../../plots/spectrum-traces';
import { TableExportBar } from '../../export/table-export-bar';

const COLUMNS = [
  { key: 'what', label: 'what' }, { key: 'resolution', label: 'grid', align: 'r' as const }, { key: 'batch', label: 'batch', align: 'r' as const },
  { key: 'secondsPerSample', label: 's / sample', align: 'r' as const }, { key: 'relL2', label: 'relL2 (decoded) vs finest solve', align: 'r' as const },
];

export function CostSection({ run }: { run: RunSummary }) {
  const cost = useCost();
  const r = cost.report;
  const rows = r?.rows.map((x) => ({ what: x.kind === 'solver' ? 'solver' : `${x.name} (${x.model})`, resolution: x.resolution, batch: x.batch, secondsPerSample: x.secondsPerSample, relL2: x.relL2 ?? 'reference' }));
  return (
    <>
      <h2>Accuracy against cost (Darcy)</h2>
      <div className="row wrap">
        <button data-testid="diagnostics-cost" disabled={cost.busy || run.bestEpoch == null}
          onClick={() => void cost.start({ benchmark: 'darcy', samples: 4, runs: [run.id] })}>
          Time the solver (at half, once and twice this run's resolution) and this run
        </button>
        <JobProgress job={cost.job} label="Timing" />
        {cost.error && <span className="error-message" role="alert">Timing failed: {cost.error}</span>}
      </div>
      {r && rows && (
        <>
          <p className="muted">{r.samples} samples, reference: the {r.finest}² solve; {r.machine.cpu} ({r.machine.cores} cores), backend {r.machine.backend}. Circles: batch 1; squares: batched.</p>
          <Plot title="Error against time per sample" testId="diagnostics-cost-plot" data={costTraces(r)}
            layout={{ xaxis: { title: 'seconds per sample', type: 'log' }, yaxis: { title: 'relL2 against the finest solve', type: 'log' } }} height={320} />
          <TableExportBar title="Accuracy against cost" columns={COLUMNS} rows={rows} latex={{ label: 'tab:cost' }} />
        </>
      )}
    </>
  );
}
