// `lino cost --benchmark darcy|burgers|navier-stokes`: accuracy against cost on this machine, in this process: the built-in
// solver at several resolutions (error against the finest solve) and each given run's inference at
// batch 1 and batched (error against the same finest solve); a table on stdout, cost.json and cost.csv.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags } from '../args';
import { selectBackend } from '../../ops/backend';
import { RunStore } from '../../runs/run-store';
import { loadPlaygroundRun, type PlaygroundRun } from '../../train/playground-run';
import { benchmarkCost, COST_BENCHMARKS, type CostBenchmark, type CostReport } from '../../train/diagnostics/cost';
import { prepareOutputFolder } from '../../util/output-folder';
import { toCsv } from '../../api/table';

const positive = (flag: string, v: string | undefined, dflt: number) => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${flag} is '${v}', expected a positive integer`);
  return n;
};

function costCsv(r: CostReport): string {
  const cols = ['kind', 'name', 'model', 'resolution', 'batch', 'secondsPerSample', 'relL2'].map((key) => ({ key, label: key }));
  return toCsv(cols, r.rows.map((row) => ({ ...row, model: row.model ?? null })));
}

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, {
      benchmark: { type: 'string' },
      resolutions: { type: 'string' },
      samples: { type: 'string' },
      batch: { type: 'string' },
      seed: { type: 'string' },
      run: { type: 'string', multiple: true },
      checkpoint: { type: 'string', default: 'best' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      backend: { type: 'string' },
    });
    const benchmark = values.benchmark as CostBenchmark;
    if (!COST_BENCHMARKS.includes(benchmark)) throw new UsageError(`--benchmark is '${values.benchmark ?? ''}', expected ${COST_BENCHMARKS.join(', ')}`);
    if (values.checkpoint !== 'best' && values.checkpoint !== 'last') throw new UsageError(`--checkpoint is '${values.checkpoint}', expected best or last`);
    // absent: a ladder around the first run's grid (each benchmark's own; the engine checks the grids)
    const resolutions = values.resolutions === undefined ? [] : values.resolutions.split(',').map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 8 || n > 8192) throw new UsageError(`--resolutions: '${s}' is not an integer in 8..8192`);
      return n;
    });
    const samples = positive('samples', values.samples, 4);
    const batch = positive('batch', values.batch, samples);
    const seed = positive('seed', values.seed, 1);
    const handles = (values.run ?? []).map((d) => RunStore.openDir(d));
    const out = values.out ? prepareOutputFolder(values.out, { force: values.force }) : undefined;
    await selectBackend(values.backend);
    const runs: PlaygroundRun[] = [];
    try {
      for (const h of handles) runs.push(await loadPlaygroundRun(h, values.checkpoint));
      const report = await benchmarkCost(benchmark, { resolutions, samples, batch, seed, runs, onProgress: values.json ? undefined : (m) => console.error(m) });
      if (out) {
        writeFileSync(join(out, 'cost.json'), JSON.stringify(report, null, 1) + '\n');
        writeFileSync(join(out, 'cost.csv'), costCsv(report));
      }
      if (values.json) {
        console.log(JSON.stringify(report));
        return 0;
      }
      const grid = benchmark === 'burgers' ? `${report.finest}-point` : `${report.finest}x${report.finest}`;
      console.log(`${benchmark}, ${report.samples} samples, reference: the ${grid} solve${report.tol !== undefined ? ` (tol ${report.tol})` : ''}; ${report.machine.cpu} (${report.machine.cores} cores), backend ${report.machine.backend}`);
      console.log(`solver: ${report.solver}`);
      console.log(`relL2: ${report.relL2Definition}`);
      console.log('  what                        grid   batch   s/sample    relL2 vs reference');
      for (const r of report.rows) {
        const what = r.kind === 'solver' ? 'solver' : `${r.name} (${r.model})`;
        console.log(`  ${what.padEnd(26)} ${String(r.resolution).padStart(5)} ${String(r.batch).padStart(7)}  ${r.secondsPerSample.toExponential(3)}  ${r.relL2 === null ? 'reference' : r.relL2.toExponential(3)}`);
      }
      if (out) console.log(`\nwritten: ${join(out, 'cost.json')}, ${join(out, 'cost.csv')}`);
      return 0;
    } finally {
      for (const r of runs) r.model.dispose();
    }
  },
};
export default command;
