// `lino train --config run.json [--workspace DIR]`: the engine's training, headless, in this
// process: creates runs/<id>/ in the workspace (or resumes one), shows a progress bar with ETA,
// prints the final metrics. Ctrl-C (or SIGTERM) stops at the next step; the run stays resumable
// (--resume ID) and the status is 130 (SIGTERM: 143). A run another process trains is refused (its lock,
// main/runs/run-lock.ts). Results go to stdout, progress (backend, memory plan, bar) to stderr;
// --json makes stdout one JSON object per line: each step and epoch record, then the summary.
import { readUserText } from '../../util/user-file';
import { join, resolve } from 'node:path';
import type { CliCommand } from '../command';
import { stopOnSignals } from '../stop-on-signals';
import { UsageError, parseFlags } from '../args';
import { preferTrainingThreads, selectBackend, formatBackendReport } from '../../ops/backend';
import { Workspace, defaultWorkspacePath } from '../../workspace/workspace';
import { RunStore } from '../../runs/run-store';
import { assertRunUnlocked } from '../../runs/run-lock';
import { trainRun, parseRunConfig } from '../../train/runner';
import { parseTorchBackend, trainTorchRun, type TorchRunHooks } from '../../train/torch-run';
import { pythonCommand } from '../../train/torch-probe';
import { readSettings } from '../../workspace/settings';
import { newGroupName, seedRunConfig } from '../../runs/seed-group';
import type { EpochRecord, StepRecord } from '../../train/trainer';
import { errorMessage } from '../../util/error-message';
import { EpochMetrics } from '../../runs/run-records';

const fmtTime = (s: number) => {
  if (!Number.isFinite(s)) return '--';
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.floor(s % 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
};
const sci = (v: number) => v.toExponential(3);

interface GroupFlags { config?: string; workspace?: string; backend?: string; id?: string; seeds?: string; quiet?: boolean }

const meanStd = (v: number[]) => {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1)) : 0;
  return `${sci(m)} ± ${sci(sd)}`;
};

/** Trains the configuration once per seed, one run after another, and summarizes the group. */
async function runGroup(values: GroupFlags): Promise<number> {
  const n = Number(values.seeds);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`--seeds is '${values.seeds}', expected an integer 1..100`);
  if (!values.config) throw new UsageError('--seeds needs --config FILE');
  const raw = JSON.parse(readUserText(values.config, { what: 'a JSON run config' }));
  const base = parseRunConfig(raw, values.config);
  const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
  const store = new RunStore(ws.dir('runs'));
  preferTrainingThreads();
  await selectBackend(values.backend ?? base.backend);
  const group = values.id ?? newGroupName(base.name);
  const rows: { seed: number; id: string; state: string; best: number; bestDec: number; epoch: number; test?: number }[] = [];
  let allDone = true;
  const stop = stopOnSignals(process.stderr);
  try {
    for (let i = 0; i < n && !stop.signal.aborted; i++) {
      const seed = base.seed + i;
      const run = store.create(seedRunConfig(base, group, i), `${group}-s${seed}`);
      const t0 = Date.now();
      const out = await trainRun(run, { workspace: ws.path, owner: 'lino train', signal: stop.signal });
      allDone &&= out.state === 'done';
      const epochs = run.readMetrics().records.flatMap((r) => {
        const e = EpochMetrics.safeParse(r);
        return e.success ? [e.data] : [];
      });
      if (epochs.length === 0) {
        console.log(`seed ${seed}: ${out.state} before its first epoch  [${run.id}]`);
        continue;
      }
      const best = epochs.reduce((a, b) => (b.val.relL2 < a.val.relL2 ? b : a), epochs[0]!);
      rows.push({ seed, id: run.id, state: out.state, best: best.val.relL2, bestDec: best.val.relL2Decoded, epoch: best.epoch, ...(best.test ? { test: best.test.relL2 } : {}) });
      console.log(`seed ${seed}: ${out.state}, best val relL2 ${sci(best.val.relL2)} (decoded ${sci(best.val.relL2Decoded)}) at epoch ${best.epoch}${best.test ? `, test ${sci(best.test.relL2)}` : ''}  [${run.id}, ${fmtTime((Date.now() - t0) / 1000)}]`);
    }
  } finally {
    stop.dispose();
  }
  if (rows.length === 0) return stop.exitCode() ?? 1;
  console.log(`\ngroup ${group} (${rows.length} of ${n} seeds): best val relL2 ${meanStd(rows.map((r) => r.best))} (normalized, paper)  ${meanStd(rows.map((r) => r.bestDec))} (decoded, FNO)` + (rows.every((r) => r.test !== undefined) ? `; test at best epoch ${meanStd(rows.map((r) => r.test!))}` : ''));
  // Stopped by a signal: the runs so far are kept (the stopped one resumable); exit as the shell reports it.
  return stop.exitCode() ?? (allDone ? 0 : 1);
}

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' },
      workspace: { type: 'string' },
      backend: { type: 'string' },
      resume: { type: 'string' },
      id: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      seeds: { type: 'string' },
      json: { type: 'boolean', default: false },
      gpus: { type: 'string' },
    });
    // --backend torch[:cpu|:cuda|:mps] [--gpus N]: PyTorch trains the run (main/train/torch-run.ts)
    const torchFlag = values.backend?.startsWith('torch') ? parseTorchBackend(values.backend) : null;
    if (values.backend?.startsWith('torch') && !torchFlag) throw new UsageError(`--backend '${values.backend}': expected torch, torch:cpu, torch:cuda or torch:mps`);
    const gpus = values.gpus === undefined ? undefined : Number(values.gpus);
    if (gpus !== undefined && (!Number.isInteger(gpus) || gpus < 1 || gpus > 64)) throw new UsageError(`--gpus '${values.gpus}': expected an integer 1..64`);
    if (gpus !== undefined && !torchFlag) throw new UsageError('--gpus needs --backend torch[:cuda]');
    if (values.seeds !== undefined && values.json) throw new UsageError('--json is not available with --seeds (each run\'s metrics.jsonl holds its records)');
    if (values.seeds !== undefined) return runGroup(values as GroupFlags);
    if (!values.config === !values.resume) throw new UsageError('give exactly one of --config FILE or --resume ID');
    const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
    const store = new RunStore(ws.dir('runs'));
    let run;
    if (values.config) {
      let raw: unknown;
      try {
        raw = JSON.parse(readUserText(values.config, { what: 'a JSON run config' }));
      } catch (e) {
        throw new Error(`${values.config}: cannot read the run configuration (${errorMessage(e)})`);
      }
      const cfg = parseRunConfig(raw, values.config);
      // a torch run says so in its config.json, so the app resumes it on torch too
      run = store.create(torchFlag ? { ...cfg, backend: 'torch', torch: { ...cfg.torch, ...torchFlag, gpus: gpus ?? cfg.torch?.gpus ?? 1 } } : cfg, values.id);
    } else {
      run = store.open(values.resume!);
      assertRunUnlocked(run.id, run.dir); // before the backend loads: refuse a second writer at once
    }
    const cfg = parseRunConfig(run.readConfig(), run.configPath);
    const torch = torchFlag ?? (values.backend === undefined && cfg.backend === 'torch' ? {} : null);
    // on torch the engine's backend only builds the initial weights: the cpu backend is always there
    if (!torch) preferTrainingThreads();
    const report = await selectBackend(torch ? 'cpu' : values.backend ?? cfg.backend);
    const out = process.stderr;
    const tty = out.isTTY && !values.quiet;
    const json = values.json === true;
    // --json: stdout carries only JSON lines; the human lines go to stderr
    const say = json ? (line: string) => void out.write(`${line}\n`) : (line: string) => console.log(line);
    const emit = (obj: unknown) => { if (json) process.stdout.write(`${JSON.stringify(obj)}\n`); };
    out.write(`run ${run.id} in ${run.dir}\n`);
    emit({ type: 'run', id: run.id, dir: run.dir, backend: torch ? 'torch' : report.active });
    if (!values.quiet && !torch) out.write(`${formatBackendReport(report)}\n`);
    const stop = stopOnSignals(out);
    const t0 = Date.now();
    let stepsPerEpoch = 1;
    let stepInEpoch = 0;
    let lastDraw = 0;
    let lastEpoch: EpochRecord | undefined;
    let firstEpoch: EpochRecord | undefined;
    const bar = (s: StepRecord) => {
      const now = Date.now();
      if (now - lastDraw < 100 && stepInEpoch !== stepsPerEpoch) return;
      lastDraw = now;
      const done = (s.epoch - 1) * stepsPerEpoch + stepInEpoch;
      const total = cfg.epochs * stepsPerEpoch;
      const frac = Math.min(1, done / total);
      const elapsed = (now - t0) / 1000;
      const startDone = ((firstEpoch?.epoch ?? s.epoch) - 1) * stepsPerEpoch;
      const rate = (done - startDone) / Math.max(1e-9, elapsed);
      const eta = rate > 0 ? (total - done) / rate : Infinity;
      const width = 24;
      const fill = Math.round(frac * width);
      const line = `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${(frac * 100).toFixed(1)}% epoch ${s.epoch}/${cfg.epochs} step ${stepInEpoch}/${stepsPerEpoch} loss ${sci(s.loss)} lr ${s.lr.toExponential(2)} ETA ${fmtTime(eta)}`;
      if (tty) out.write(`\r${line.padEnd(110)}`);
    };
    try {
      const train = torch ? (r: typeof run, h: TorchRunHooks) => trainTorchRun(r, { ...h, ...torch, ...(gpus ? { gpus } : {}), python: pythonCommand(readSettings().python) }) : trainRun;
      const result = await train(run, {
        owner: 'lino train',
        signal: stop.signal,
        workspace: ws.path,
        onPlan: (p, steps) => {
          stepsPerEpoch = steps.stepsPerEpoch;
          if (!values.quiet) out.write(`memory: ${p.message}\n`);
        },
        onStep: (s) => {
          stepInEpoch = ((s.step - 1) % stepsPerEpoch) + 1;
          emit(s);
          bar(s);
        },
        onEpoch: (e) => {
          firstEpoch ??= e;
          lastEpoch = e;
          emit(e);
          if (tty) out.write('\r'.padEnd(111) + '\r');
          if (!values.quiet || !tty) {
            say(`epoch ${e.epoch}/${cfg.epochs}  train loss ${sci(e.train.loss)}  val relL2 ${sci(e.val.relL2)} (decoded ${sci(e.val.relL2Decoded)})  mse ${sci(e.val.mse)}${e.best ? ' *' : ''}  ${e.samplesPerSec.toFixed(1)} samples/s  ETA ${fmtTime(e.etaSeconds)}`);
          }
        },
        onLog: (m) => {
          // PyTorch's own lines come as 'python: ...' (its events.log has them too)
          const line = m.replace(/^python: /, '');
          if (/^(resuming|refused|failed|started PyTorch|stopped|the PyTorch process|Traceback)/.test(line)) out.write(`${line}\n`);
        },
      });
      if (tty) out.write('\n');
      say(`\nrun ${run.id}: ${result.state}${result.reason ? ` (${result.reason})` : ''} after ${result.epoch} epochs, ${result.step} steps, ${fmtTime((Date.now() - t0) / 1000)}`);
      if (lastEpoch) {
        const v = lastEpoch.val;
        say(`final   train loss ${sci(lastEpoch.train.loss)}  val relL2 ${sci(v.relL2)} (normalized, paper)  ${sci(v.relL2Decoded)} (decoded, FNO)  val mse ${sci(v.mse)}`);
        if (v.steps) say(`per-step val relL2 (decoded): ${v.steps.mean.map((m, i) => `${sci(m)}±${v.steps!.std[i]!.toExponential(1)}`).join('  ')}`);
        say(`best    val relL2 ${sci(lastEpoch.bestValRelL2)} at epoch ${lastEpoch.bestEpoch}` + (lastEpoch.bestTestRelL2 !== undefined ? `; test relL2 at that epoch ${sci(lastEpoch.bestTestRelL2)} (decoded ${sci(lastEpoch.bestTestRelL2Decoded!)})` : ''));
      }
      say(`checkpoints: ${join(run.dir, 'checkpoints')}`);
      emit({
        type: 'summary', id: run.id, dir: run.dir, state: result.state, ...(result.reason ? { reason: result.reason } : {}),
        epoch: result.epoch, step: result.step, seconds: (Date.now() - t0) / 1000, checkpoints: join(run.dir, 'checkpoints'),
        ...(lastEpoch ? { final: { trainLoss: lastEpoch.train.loss, val: lastEpoch.val }, best: { epoch: lastEpoch.bestEpoch, valRelL2: lastEpoch.bestValRelL2, ...(lastEpoch.bestTestRelL2 !== undefined ? { testRelL2: lastEpoch.bestTestRelL2 } : {}) } } : {}),
      });
      // A signal: the run stopped at a step boundary with checkpoints/last written; exit as the
      // shell reports a process ended by it (128 + signal number: SIGINT 130, SIGTERM 143)
      const code = stop.exitCode();
      if (code !== null) return code;
      return result.state === 'done' || result.state === 'stopped' ? 0 : 1;
    } finally {
      stop.dispose();
    }
  },
};
export default command;
