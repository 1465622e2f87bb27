// `lino eval --run DIR`: evaluates a run's checkpoint and prints relL2 in both conventions,
// the best/median/worst samples, the per-step curve of autoregressive runs, and the numbers at
// every requested resolution (resolution transfer: --at N, --source solved|resampled). --data evaluates on other data. --spectrum DIR:
// the error spectrum and the physics check (docs/diagnostics.md) as diagnostics.json and CSV tables.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUserText } from '../../util/user-file';
import { prepareOutputFolder } from '../../util/output-folder';
import { branchSpectraTables, diagnosticsTables } from '../../api/diagnostics-tables';
import type { BranchSpectraReport } from '../../train/diagnostics/schema';
import { toCsv } from '../../api/table';
import type { EvaluationResult } from '../../train/evaluation-result';
import type { CliCommand } from '../command';
import { UsageError, parseFlags, requireFlag } from '../args';
import { selectBackend } from '../../ops/backend';
import { RunStore } from '../../runs/run-store';
import { evaluateRun } from '../../train/evaluate-run';
import { DataSpec } from '../../data/data-spec';

const sci = (v: number) => v.toExponential(3);
const band = (v: number | null) => (v === null ? 'n/a' : sci(v));

/**
 * diagnostics.json (every grid's diagnostics; LiNO: the branch spectra) and spectrum.csv, bands.csv,
 * physics.csv (LiNO: branch-spectra.csv, branch-bands.csv) in `out`; answers the files.
 */
function writeDiagnostics(out: string, res: EvaluationResult, branches: BranchSpectraReport | null): string[] {
  const entries = res.resolutions.filter((r) => r.diagnostics).map((r) => ({ grid: r.grid, diagnostics: r.diagnostics! }));
  const files = [join(out, 'diagnostics.json')];
  writeFileSync(files[0]!, JSON.stringify({ runId: res.runId, checkpoint: res.checkpoint, epoch: res.epoch, split: res.split, resolutions: entries, branchSpectra: branches }) + '\n');
  for (const t of [...diagnosticsTables(entries), ...(branches ? branchSpectraTables(branches) : [])]) {
    const f = join(out, `${t.name}.csv`);
    writeFileSync(f, toCsv(t.columns, t.rows));
    files.push(f);
  }
  return files;
}

function printBranchShares(b: BranchSpectraReport): void {
  console.log(`\nbranch spectra (${b.samples} samples): each branch's share of its block's branch energy per band`);
  b.blocks.forEach((blk, i) => {
    const cells = blk.components.map((k) => `${k} ${['low', 'mid', 'high'].map((band) => { const v = blk.bandShare[k]![band as 'low']; return v === null ? 'n/a' : v.toFixed(3); }).join('/')}`);
    console.log(`  block ${i}: ${cells.join('  ')}`);
  });
}

function printDiagnostics(d: NonNullable<EvaluationResult['resolutions'][number]['diagnostics']>): void {
  const s = d.spectrum;
  if (s) {
    const f = s.mean.fRmse, r = s.mean.bandRelative;
    console.log(`  fRMSE (PDEBench, shells <${s.bands.iLow} | ${s.bands.iLow}-${s.bands.iHigh - 1} | >=${s.bands.iHigh}): low ${band(f.low)}  mid ${band(f.mid)}  high ${band(f.high)}`);
    console.log(`  relative error per band: low ${band(r.low)}  mid ${band(r.mid)}  high ${band(r.high)}`);
  }
  const p = d.physics;
  if (p) console.log(`  physics (${p.quantity}): prediction ${sci(p.mean.prediction)}, truth ${band(p.mean.truth)}`);
  if (p?.equation) console.log(`  vorticity equation (${p.equation.quantity}): prediction ${sci(p.equation.mean.prediction)}, truth ${band(p.equation.mean.truth)}`);
}

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, {
      run: { type: 'string' },
      checkpoint: { type: 'string', default: 'best' },
      split: { type: 'string', default: 'val' },
      resolutions: { type: 'string' },
      at: { type: 'string' },
      source: { type: 'string' },
      steps: { type: 'string' },
      data: { type: 'string' },
      export: { type: 'string' },
      format: { type: 'string', default: 'npy' },
      json: { type: 'boolean', default: false },
      backend: { type: 'string' },
      spectrum: { type: 'string' },
      force: { type: 'boolean', default: false },
    });
    const runDir = requireFlag(values, 'run');
    if (values.checkpoint !== 'best' && values.checkpoint !== 'last') throw new UsageError(`--checkpoint is '${values.checkpoint}', expected best or last`);
    if (values.format !== 'npy' && values.format !== 'mat') throw new UsageError(`--format is '${values.format}', expected npy or mat`);
    if (!['val', 'test', 'train'].includes(values.split!)) throw new UsageError(`--split is '${values.split}', expected val, test or train`);
    // --at N[,M]: the same as --resolutions (the grids of a transfer evaluation)
    const grids = (flag: 'resolutions' | 'at') => (values[flag] ? values[flag].split(',').map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 2) throw new UsageError(`--${flag}: '${s}' is not an integer >= 2`);
      return n;
    }) : []);
    const resolutions = [...new Set([...grids('resolutions'), ...grids('at')])];
    const source = values.source;
    if (source !== undefined && source !== 'solved' && source !== 'resampled') throw new UsageError(`--source is '${source}', expected solved (by the generator at each grid) or resampled (interpolated from the native grid)`);
    if (source !== undefined && resolutions.length === 0) throw new UsageError('--source chooses how the data at other grids are made: give them with --at N (or --resolutions)');
    let data: DataSpec | undefined;
    if (values.data) {
      const text = values.data.trim().startsWith('{') ? values.data : readUserText(values.data, { what: 'a JSON data spec' });
      const r = DataSpec.safeParse(JSON.parse(text));
      if (!r.success) throw new Error(`--data: field '${r.error.issues[0]!.path.join('.')}': ${r.error.issues[0]!.message}`);
      data = r.data;
    }
    const run = RunStore.openDir(runDir); // after the flags are checked: a usage error comes first
    // a folder that cannot take the files is refused before the evaluation is spent
    const out = values.spectrum ? prepareOutputFolder(values.spectrum, { force: values.force, flag: '--spectrum' }) : undefined;
    await selectBackend(values.backend);
    const res = await evaluateRun(run, {
      checkpoint: values.checkpoint,
      split: values.split as 'val' | 'test' | 'train',
      resolutions,
      ...(source ? { source } : {}),
      ...(values.steps ? { rolloutSteps: Number(values.steps) } : {}),
      ...(values.export ? { exportDir: values.export, exportFormat: values.format } : {}),
      ...(data ? { data } : {}),
      ...(values.spectrum ? { diagnostics: true } : {}),
    });
    let written: string[] = [];
    if (values.spectrum) {
      const branches = res.branchSpectra ?? null;
      written = writeDiagnostics(out!, res, branches);
      if (branches && !values.json) printBranchShares(branches);
    }
    if (values.json) {
      console.log(JSON.stringify(res));
      return 0;
    }
    console.log(`run ${res.runId}, checkpoint ${res.checkpoint} (epoch ${res.epoch}), split ${res.split}`);
    for (const r of res.resolutions) {
      console.log(`\n${r.grid.join('x')}  n=${r.n}  relL2 ${sci(r.metrics.relL2)} (normalized, paper)  ${sci(r.metrics.relL2Decoded)} (decoded, FNO)  mse ${sci(r.metrics.mse)}`);
      if (r.origin) console.log(`  data: ${r.origin}`);
      const p = (i: number) => r.perSample.find((s) => s.index === i)!;
      console.log(`  best sample ${r.best} (${sci(p(r.best).relL2)}), median ${r.median} (${sci(p(r.median).relL2)}), worst ${r.worst} (${sci(p(r.worst).relL2)})`);
      if (r.metrics.steps) {
        console.log(`  per-step relL2 on decoded fields (mean ± std):`);
        r.metrics.steps.mean.forEach((m, k) => console.log(`    step ${String(k + 1).padStart(3)}  ${sci(m)} ± ${sci(r.metrics.steps!.std[k]!)}`));
        console.log(`  relL2 above is the mean over steps (normalized, the release's "one-step"); full rollout (all frames at once, normalized): ${sci(r.metrics.rolloutRelL2!)}, decoded ${sci(r.metrics.rolloutRelL2Decoded!)}`);
      }
      if (r.exportFiles) console.log(`  exported: ${r.exportFiles.join(', ')}`);
      if (r.diagnostics) printDiagnostics(r.diagnostics);
    }
    if (written.length) console.log(`\ndiagnostics written: ${written.join(', ')}`);
    return 0;
  },
};
export default command;
