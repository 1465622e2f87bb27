// `lino sweep --config sweep.json [--workspace DIR] [--id ID] [--json]`: runs a sweep headless in this
// process, one trial after another, each an ordinary run in the workspace. Running the same command
// again (after Ctrl-C, a crash or kill -9) resumes the sweep from sweeps/<id>/state.json.
// `--export DIR [--force]` writes the trials for torchrun/SLURM instead (DIR new or empty, unless --force). Exit status as `lino train`: 0 done,
// 1 a failure (the sweep or one of its trials), 2 usage, 130/143 stopped by SIGINT/SIGTERM.
import { join, resolve } from 'node:path';
import type { CliCommand } from '../command';
import { readUserText } from '../../util/user-file';
import { UsageError, parseFlags } from '../args';
import { selectBackend } from '../../ops/backend';
import { Workspace, defaultWorkspacePath } from '../../workspace/workspace';
import { trainRun } from '../../train/runner';
import { errorMessage } from '../../util/error-message';
import { parseSweepConfig, type SweepConfig } from '../../sweep/sweep-config';
import { openOrCreateSweep, sweepDir, type SweepState } from '../../sweep/sweep-state';
import { SweepRunner, type TrialHooks } from '../../sweep/sweep-runner';
import type { RunHandle } from '../../runs/run-store';
import { analyzeSweep } from '../../sweep/sweep-analysis';
import { sweepConfigTable, sweepImportanceTable, sweepTrialTable, type SweepTable } from '../../api/sweep-tables';
import { cellTexts } from '../../api/table';
import { collectSweepFromCluster, exportSweepForCluster } from '../../sweep/sweep-export';
import { stopOnSignals } from '../stop-on-signals';
import { checkTrialConfigs } from '../../sweep/trial-configs';

function readSweepFile(path: string): SweepConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readUserText(path, { what: 'a sweep.json' }));
  } catch (e) {
    throw new Error(`${path}: cannot read the sweep (${errorMessage(e)})`);
  }
  return parseSweepConfig(raw, path);
}

/** A table as aligned text, its cells by the exports' number rule. */
const pad = (t: SweepTable) => {
  const header = t.columns.map((c) => c.label);
  const rows = cellTexts(t.columns, t.rows, '-');
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(w[i]!)).join('  ').trimEnd()).join('\n');
};

/** The closing tables: trials, configurations (mean ± std over seeds) and importance. */
function printSummary(sweep: SweepConfig, state: SweepState, say: (s: string) => void): void {
  const a = analyzeSweep(sweep, state);
  say(`\nsweep ${state.id}: ${state.status}${state.reason ? ` (${state.reason})` : ''}, ${state.trials.length} trials, ${state.wallSeconds.toFixed(1)} s`);
  const axes = sweep.axes.map((x) => x.path);
  say(`\n${pad(sweepTrialTable(axes, state))}`);
  say(`\nper configuration (best val relL2, normalized):\n${pad(sweepConfigTable(axes, state, a))}`);
  say(`\nparameter importance, ${a.importanceBasis.text}:\n${pad(sweepImportanceTable(a))}`);
  if (a.best) say(`\nbest configuration: c${a.best.config} ${JSON.stringify(a.best.params)} mean ${a.best.mean!.toExponential(3)} over ${a.best.n} seed(s)`);
}

/** One trial trained in this process (the run's lock, checks and records as `lino train`). */
const trainTrial = (workspace: string, run: RunHandle, hooks: TrialHooks) => {
  const trial = new AbortController();
  const onAbort = () => trial.abort();
  hooks.signal.addEventListener('abort', onAbort);
  process.stderr.write(`trial ${run.id}\n`);
  return trainRun(run, {
    workspace, owner: 'lino sweep', signal: trial.signal,
    onEpoch: (e) => {
      const d = hooks.onEpoch(e.epoch, e.val.relL2);
      process.stderr.write(`  epoch ${e.epoch}: val relL2 ${e.val.relL2.toExponential(3)}${d === 'prune' ? '  pruned (ASHA)' : ''}\n`);
      if (d === 'prune') trial.abort();
    },
  }).finally(() => hooks.signal.removeEventListener('abort', onAbort));
};

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' }, workspace: { type: 'string' }, id: { type: 'string' }, backend: { type: 'string' },
      json: { type: 'boolean', default: false }, export: { type: 'string' }, force: { type: 'boolean', default: false }, collect: { type: 'string' }, 'nproc-per-node': { type: 'string' }, nodes: { type: 'string' },
    });
    if (!values.config) throw new UsageError('missing required flag --config sweep.json');
    const sweep = readSweepFile(values.config);
    const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
    const training = values.export === undefined && values.collect === undefined;
    // each trial is a run: lino train's checks of its configuration before the sweep is made (an
    // export's trials train elsewhere: no memory check against this machine's backend)
    const backend = training ? (await selectBackend(values.backend ?? (sweep.base.backend as string | undefined))).active : null;
    await checkTrialConfigs(sweep, values.config, backend);
    const { id, created } = openOrCreateSweep(ws.path, sweep, values.id);
    const json = values.json === true;
    const say = json ? (l: string) => void process.stderr.write(`${l}\n`) : (l: string) => console.log(l);
    const emit = (o: unknown) => { if (json) process.stdout.write(`${JSON.stringify(o)}\n`); };
    if (values.export !== undefined) {
      const int = (name: string, v: string | undefined) => {
        const k = Number(v ?? '1');
        if (!Number.isInteger(k) || k < 1) throw new UsageError(`--${name}: expected an integer >= 1, got '${v}'`);
        return k;
      };
      const r = await exportSweepForCluster(ws.path, id, values.export, { nprocPerNode: int('nproc-per-node', values['nproc-per-node']), nodes: int('nodes', values.nodes), force: values.force === true });
      say(`exported ${r.trials.length} trials of sweep ${id} to ${r.out}: sbatch sweep-array.sbatch (one array task per trial) or ./run-all.sh (one torchrun per trial)`);
      say(`bring them back with: lino sweep --config ${values.config} --collect ${r.out}`);
      emit({ type: 'export', id, out: r.out, trials: r.trials });
      return 0;
    }
    if (values.collect !== undefined) {
      const r = collectSweepFromCluster(ws.path, id, values.collect);
      say(`collected ${r.trials.length} trained trial(s) from ${r.out}${r.skipped.length ? `; kept the local run of ${r.skipped.join(', ')} (it has trained here)` : ''}`);
      say(`record them: lino sweep --config ${values.config} (trials not collected would train here)`);
      emit({ type: 'collect', id, ...r });
      return 0;
    }
    const stop = stopOnSignals(process.stderr);
    let reported = new Set<string>();
    const runner = new SweepRunner(ws.path, id, (run, hooks) => trainTrial(ws.path, run, hooks), {
      signal: stop.signal, owner: 'lino sweep',
      onUpdate: (s) => {
        const ended = s.trials.filter((t) => t.state !== 'pending' && t.state !== 'running');
        for (const t of ended) if (!reported.has(t.runId)) emit({ type: 'trial', ...t, params: s.configs[t.config]!.params });
        reported = new Set(ended.map((t) => t.runId));
      },
    });
    let release: () => void;
    try {
      release = runner.hold(); // a second process on this sweep is refused before anything is written
    } catch (e) {
      stop.dispose();
      throw e;
    }
    process.stderr.write(`sweep ${id} ${created ? 'created' : 'resumed'} in ${sweepDir(ws.path, id)}\n`);
    emit({ type: 'sweep', id, dir: sweepDir(ws.path, id), created });
    let state: SweepState;
    try {
      state = await runner.run();
    } finally {
      release();
      stop.dispose();
    }
    printSummary(sweep, state, say);
    emit({ type: 'summary', id, status: state.status, reason: state.reason ?? null, wallSeconds: state.wallSeconds, trials: state.trials, analysis: analyzeSweep(sweep, state), dir: join(sweepDir(ws.path, id)) });
    const code = stop.exitCode();
    if (code !== null) return code;
    return state.status === 'done' && !state.trials.some((t) => t.state === 'failed') ? 0 : 1;
  },
};
export default command;
