// How much faster PyTorch trains than the workbench's own engine on this machine, measured, not
// guessed: a few training steps of one small fixed LiNO case on torch (scaleout/calibrate.py, the
// step scaleout.train takes, on the chosen device with a run's default threads) and then on the
// engine's current backend (train.calibrate's step: forward, objective, backward, clip, AdamW), each
// after one warm-up step, medians compared. Runs in a job worker of the analysis lane (the engine
// thread keeps answering); kept per workspace in .lino/torch-speed.json, one entry per interpreter,
// torch version, device and engine backend, with when it was measured.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { calibrate } from './calibrate';
import { parseRunConfig } from './runner';
import { scaleoutRoot } from './scaleout-dir';
import { TorchSpeed, TorchSpeedFile } from './torch-speed-record';
import type { TorchDevice, TorchReport } from './torch-report';
import { modelEntry } from '../model/registry';
import { readUserText } from '../util/user-file';
import { writeJsonAtomic } from '../util/atomic-file';
import { errorMessage } from '../util/error-message';

/** The fixed case both sides time: LiNO on a 32² Darcy-shaped grid (3 input channels: a and x, y), the kinds bench's size. */
export const SPEED_CASE = {
  label: 'LiNO 32² (width 32, depth 4, batch 4)',
  grid: [32, 32],
  batch: 4,
  model: { kind: 'lino', width: 32, depth: 4 },
  inChannels: 3,
  outChannels: 1,
} as const;
export const DEFAULT_SPEED_STEPS = 5;
/** Python's part (start, torch import, steps) must end within this time. */
const PYTHON_DEADLINE_MS = 180_000;
const MARK = 'LINO_TORCH_SPEED ';
const KEEP = 64;

export const speedFile = (workspace: string) => join(workspace, '.lino', 'torch-speed.json');

/** The model as the registry builds it for the case (what scaleout/calibrate.py builds in torch). */
export function speedCaseModel(): Record<string, unknown> {
  const c = SPEED_CASE;
  return { kind: c.model.kind, ...modelEntry(c.model.kind).fromRun(c.model, { dims: c.grid.length, inChannels: c.inChannels, outChannels: c.outChannels, seed: 1, grid: [...c.grid] }) };
}

interface PythonTiming { warmupMs: number; medianMs: number; timesMs: number[]; threads: number; torch: string; device: string }

/** Reads the calibration's marked line; throws naming what was wrong. */
export function parseSpeedOutput(python: string, stdout: string, stderr: string, code: number | null): PythonTiming {
  const line = stdout.split('\n').find((l) => l.startsWith(MARK));
  if (!line) {
    const tail = (stderr.trim() || stdout.trim()).split('\n').slice(-6).join(' | ').slice(0, 800);
    throw new Error(`${python} -m scaleout.calibrate exited with code ${code} without its '${MARK.trim()}' line${tail ? `: ${tail}` : ''}`);
  }
  const r = JSON.parse(line.slice(MARK.length)) as Partial<PythonTiming>;
  const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  if (!ok(r.medianMs) || !ok(r.warmupMs) || !Array.isArray(r.timesMs) || typeof r.torch !== 'string') {
    throw new Error(`${python} -m scaleout.calibrate: its answer lacks positive medianMs/warmupMs, timesMs or torch: ${line.slice(0, 300)}`);
  }
  return r as PythonTiming;
}

/** Times the case on torch (`device`) in a subprocess with a deadline; cancelled by `signal`. */
export function timeTorchSteps(python: string, device: TorchDevice, steps: number, signal?: AbortSignal): Promise<PythonTiming> {
  const root = scaleoutRoot();
  const args = ['-u', '-m', 'scaleout.calibrate', '--model', JSON.stringify(speedCaseModel()), '--grid', ...SPEED_CASE.grid.map(String), '--batch', String(SPEED_CASE.batch), '--steps', String(steps), '--device', device];
  const env = { ...process.env, PYTHONPATH: [root, process.env.PYTHONPATH].filter(Boolean).join(process.platform === 'win32' ? ';' : ':'), PYTHONDONTWRITEBYTECODE: '1' };
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let done = false;
    const finish = (f: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      f();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new Error(`${python} -m scaleout.calibrate did not finish within ${PYTHON_DEADLINE_MS / 1000} s (killed)`)));
    }, PYTHON_DEADLINE_MS);
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(new Error('cancelled')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    child.stdout.on('data', (b: Buffer) => { if (stdout.length < 1 << 20) stdout += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-8192); });
    child.on('error', (e) => finish(() => reject(new Error(`cannot start ${python}: ${errorMessage(e)}`))));
    child.on('close', (code) => finish(() => {
      try {
        resolve(parseSpeedOutput(python, stdout, stderr, code));
      } catch (e) {
        reject(e);
      }
    }));
  });
}

/** The engine's side: the same case through train.calibrate's step on `backend` (the worker's own). */
async function timeEngineSteps(backend: string, steps: number, signal?: AbortSignal): Promise<{ msPerStep: number; warmupMs: number }> {
  const c = SPEED_CASE;
  const cfg = parseRunConfig({ model: c.model, data: { kind: 'synthetic', grid: [...c.grid], train: c.batch, val: 1, seed: 1 }, batchSize: c.batch, epochs: 1, seed: 1 }, 'torch speed case');
  const r = await calibrate(cfg, { backend, steps, budgetMs: 120_000, ...(signal ? { signal } : {}) });
  return { msPerStep: r.msPerStep, warmupMs: r.warmupMs };
}

export interface MeasureOptions {
  python: string;
  probe: TorchReport;
  device: TorchDevice;
  /** The engine backend this thread runs (tf.getBackend()). */
  engineBackend: string;
  steps?: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
}

/** Measures torch on `device` against the engine's backend, torch first (each side alone on the machine). */
export async function measureTorchSpeed(o: MeasureOptions): Promise<TorchSpeed> {
  const steps = o.steps ?? DEFAULT_SPEED_STEPS;
  o.onProgress?.(0.05, `timing ${steps} steps of ${SPEED_CASE.label} on torch ${o.device}`);
  const t = await timeTorchSteps(o.python, o.device, steps, o.signal);
  if (o.signal?.aborted) throw new Error('cancelled');
  o.onProgress?.(0.5, `timing ${steps} steps of ${SPEED_CASE.label} on the engine's ${o.engineBackend}`);
  const e = await timeEngineSteps(o.engineBackend, steps, o.signal);
  return TorchSpeed.parse({
    python: o.probe.executable ?? o.python,
    torch: t.torch,
    device: o.device,
    threads: t.threads,
    engineBackend: o.engineBackend,
    caseLabel: SPEED_CASE.label,
    steps,
    torchMsPerStep: t.medianMs,
    engineMsPerStep: e.msPerStep,
    torchWarmupMs: t.warmupMs,
    engineWarmupMs: e.warmupMs,
    speedup: e.msPerStep / t.medianMs,
    measuredAt: new Date().toISOString(),
  });
}

const sameKey = (a: Pick<TorchSpeed, 'python' | 'torch' | 'device' | 'engineBackend'>, b: typeof a) =>
  a.python === b.python && a.torch === b.torch && a.device === b.device && a.engineBackend === b.engineBackend;

/** The workspace's measurements; a missing file is none, a damaged one is none with its problem named. */
export function readTorchSpeeds(workspace: string): { entries: TorchSpeed[]; problem?: string } {
  const path = speedFile(workspace);
  if (!existsSync(path)) return { entries: [] };
  try {
    const parsed = TorchSpeedFile.safeParse(JSON.parse(readUserText(path, { maxBytes: 1 << 20, what: 'the measured torch speeds' })));
    if (parsed.success) return { entries: parsed.data.entries };
    const i = parsed.error.issues[0]!;
    return { entries: [], problem: `${path}: field '${i.path.join('.')}': ${i.message}; measure again to replace it` };
  } catch (e) {
    return { entries: [], problem: `${path}: ${errorMessage(e)}; measure again to replace it` };
  }
}

/** Keeps `s`, replacing the entry of the same interpreter, torch, device and engine backend. */
export function saveTorchSpeed(workspace: string, s: TorchSpeed): void {
  const kept = readTorchSpeeds(workspace).entries.filter((e) => !sameKey(e, s));
  writeJsonAtomic(speedFile(workspace), { format: 'lino-torch-speed', version: 1, entries: [...kept, s].slice(-KEEP) } satisfies TorchSpeedFile);
}

/** The measurements that hold for this interpreter (its probe) and engine backend. */
export function currentTorchSpeeds(workspace: string, probe: TorchReport, engineBackend: string): { entries: TorchSpeed[]; problem?: string } {
  const r = readTorchSpeeds(workspace);
  if (!probe.ok) return { entries: [], ...(r.problem ? { problem: r.problem } : {}) };
  const python = probe.executable ?? probe.python;
  return { ...r, entries: r.entries.filter((e) => e.python === python && e.torch === probe.torch && e.engineBackend === engineBackend) };
}
