// Accuracy against cost (docs/diagnostics.md): the built-in solver of the run's benchmark (Darcy,
// Burgers or Navier-Stokes) at several resolutions and the chosen run, timed in one engine job on this
// machine; a log-log figure of error against seconds per sample, and the table (CSV/LaTeX) with the
// relL2 it carries named. A run of another benchmark can still time a chosen solver alone.
import { useState } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { benchmarkName, benchmarkOfId } from '../../../../main/api/dataset-name';
import { useCost } from '../../stores/cost';
import { JobProgress } from '../../components/job-progress';
import { Plot } from '../../plots/plot';
import { costTraces } from '../../plots/spectrum-traces';
import { TableExportBar } from '../../export/table-export-bar';

const BENCHMARKS = ['darcy', 'burgers', 'navier-stokes'] as const;
type Bench = (typeof BENCHMARKS)[number];
const isBench = (b: string | null | undefined): b is Bench => (BENCHMARKS as readonly string[]).includes(b ?? '');

/** The table's columns; the relL2 column names its convention (decoded; a rollout's: the mean over its frames). */
const columnsFor = (rollout: boolean) => [
  { key: 'what', label: 'what' }, { key: 'resolution', label: 'grid', align: 'r' as const }, { key: 'batch', label: 'batch', align: 'r' as const },
  { key: 'secondsPerSample', label: 's / sample', align: 'r' as const },
  { key: 'relL2', label: rollout ? 'relL2 (decoded, mean over rolled-out frames) vs finest solve' : 'relL2 (decoded) vs finest solve', align: 'r' as const },
];

export function CostSection({ run }: { run: RunSummary }) {
  const cost = useCost();
  const own = run.benchmark ?? (run.dataId ? benchmarkOfId(run.dataId) : null);
  const [other, setOther] = useState<Bench>('darcy');
  const bench: Bench = isBench(own) ? own : other;
  const r = cost.report;
  const rows = r?.rows.map((x) => ({ what: x.kind === 'solver' ? 'solver' : `${x.name} (${x.model})`, resolution: x.resolution, batch: x.batch, secondsPerSample: x.secondsPerSample, relL2: x.relL2 ?? 'reference' }));
  const grid = (s: number) => (r?.benchmark === 'burgers' ? `${s}-point` : `${s}²`);
  return (
    <>
      <h2>Accuracy against cost ({benchmarkName(bench)})</h2>
      <div className="row wrap">
        {!isBench(own) && (
          <>
            <label htmlFor="diagnostics-cost-benchmark">Solver</label>
            <select id="diagnostics-cost-benchmark" data-testid="diagnostics-cost-benchmark" value={other} onChange={(e) => setOther(e.target.value as Bench)}>
              {BENCHMARKS.map((b) => <option key={b} value={b}>{benchmarkName(b)}</option>)}
            </select>
          </>
        )}
        <button data-testid="diagnostics-cost" disabled={cost.busy || (isBench(own) && run.bestEpoch == null)}
          onClick={() => void cost.start({ benchmark: bench, samples: 4, runs: isBench(own) ? [run.id] : [] })}>
          {isBench(own) ? 'Time the solver (around this run\'s resolution) and this run' : `Time the ${benchmarkName(bench)} solver (this run has no built-in solver)`}
        </button>
        <JobProgress job={cost.job} label="Timing" />
        {cost.error && <span className="error-message" role="alert">Timing failed: {cost.error}</span>}
      </div>
      {r && rows && (
        <>
          <p className="muted" data-testid="diagnostics-cost-caption">
            {benchmarkName(r.benchmark)}, {r.samples} samples, reference: the {grid(r.finest)} solve{r.window ? `, ${r.window.tOut} frames rolled out from ${r.window.tIn}` : ''}; {r.machine.cpu} ({r.machine.cores} cores), backend {r.machine.backend}. Circles: batch 1; squares: batched.
            {' '}Solver: {r.solver}. relL2: {r.relL2Definition}.
          </p>
          <Plot title={`Error against time per sample (${benchmarkName(r.benchmark)})`} testId="diagnostics-cost-plot" data={costTraces(r)}
            layout={{ xaxis: { title: 'seconds per sample', type: 'log' }, yaxis: { title: 'relL2 against the finest solve', type: 'log' } }} height={320} />
          <TableExportBar title={`Accuracy against cost, ${benchmarkName(r.benchmark)}`} columns={columnsFor(!!r.window)} rows={rows} latex={{ label: `tab:cost-${r.benchmark}`, caption: `Accuracy against cost, ${benchmarkName(r.benchmark)}: seconds per sample and relL2 (${r.relL2Definition}). ${r.machine.cpu}, backend ${r.machine.backend}.` }} />
        </>
      )}
    </>
  );
}
