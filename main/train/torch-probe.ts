// Finds PyTorch: runs the configured Python interpreter (LINO_PYTHON, else python3 on PATH) in a
// subprocess with a deadline, so a broken interpreter cannot hang the engine, and reads back one
// marked JSON line: versions, CUDA GPUs (name, memory), MPS, CPU threads. Refuses torch older than
// MIN_TORCH, saying why. The engine caches the answer per interpreter (probing imports torch: ~1-3 s).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { MIN_TORCH, TORCH_INSTALL_HINT, TorchReport } from './torch-report';
import { errorMessage } from '../util/error-message';
import { pythonPathProblem } from '../util/python-path';

const MARK = 'LINO_TORCH_PROBE ';
export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

// Imports nothing it does not report on; a missing numpy is reported as such (scaleout needs it).
const SCRIPT = `
import json, sys, importlib.util
r = {"pythonVersion": sys.version.split()[0], "executable": sys.executable}
try:
    import torch
except BaseException as e:
    r["error"] = "torch: %s: %s" % (type(e).__name__, e)
    print(${JSON.stringify(MARK)} + json.dumps(r), flush=True)
    sys.exit(0)
r["torch"] = torch.__version__
try:
    import numpy
    r["numpy"] = numpy.__version__
except BaseException as e:
    r["error"] = "numpy: %s: %s" % (type(e).__name__, e)
cuda = []
try:
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            cuda.append({"name": p.name, "memoryBytes": int(p.total_memory)})
except BaseException:
    pass
r["cuda"] = cuda
mps = getattr(torch.backends, "mps", None)
r["mps"] = bool(mps is not None and mps.is_available())
r["cpuThreads"] = torch.get_num_threads()
r["torchrun"] = importlib.util.find_spec("torch.distributed.run") is not None
print(${JSON.stringify(MARK)} + json.dumps(r), flush=True)
`;

/** Interpreters that came from the setting (a client's choice, settings.python): the probe holds them to the trust rule. */
const fromSetting = new Set<string>();

/** The interpreter the workbench runs: LINO_PYTHON, else `setting` (the Workspace view's), else python3. */
export function pythonCommand(setting?: string): string {
  if (process.env.LINO_PYTHON) return process.env.LINO_PYTHON;
  if (!setting) return 'python3';
  fromSetting.add(setting);
  return setting;
}

/** "1.13.0a0+gitunknown" -> [1, 13]; null when it is not a version. */
export function torchMajorMinor(v: string): [number, number] | null {
  const m = /^(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function failed(python: string, problem: string, t0: number, extra: Partial<TorchReport> = {}): TorchReport {
  return TorchReport.parse({ python, ok: false, problem, install: TORCH_INSTALL_HINT, probeMs: Date.now() - t0, ...extra });
}

/** Reads the probe's output into a report (exported for the tests of garbage output). */
export function parseProbeOutput(python: string, stdout: string, stderr: string, code: number | null, t0 = Date.now()): TorchReport {
  const line = stdout.split('\n').find((l) => l.startsWith(MARK));
  if (!line) {
    const tail = (stderr.trim() || stdout.trim()).split('\n').slice(-3).join(' | ').slice(0, 400);
    return failed(python, `${python} did not answer the probe (exit code ${code}; expected a '${MARK.trim()}' line${tail ? `, got: ${tail}` : ', got no output'}); is it a Python 3 interpreter?`, t0);
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line.slice(MARK.length)) as Record<string, unknown>;
  } catch (e) {
    return failed(python, `${python}: the probe's answer is not JSON (${errorMessage(e)})`, t0);
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const base = { pythonVersion: str(raw.pythonVersion), executable: str(raw.executable) };
  if (typeof raw.torch !== 'string') return failed(python, `${python} (Python ${String(raw.pythonVersion)}) cannot import torch (${String(raw.error ?? 'not installed')})`, t0, base);
  const parsed = TorchReport.safeParse({ python, ok: true, ...raw, probeMs: Date.now() - t0 });
  if (!parsed.success) return failed(python, `${python}: the probe's answer does not have the expected fields (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`, t0, base);
  const r = parsed.data;
  const mm = torchMajorMinor(r.torch!);
  if (!mm) return failed(python, `${python}: torch reports version '${r.torch}', expected MAJOR.MINOR...`, t0, { ...r, ok: false });
  if (mm[0] < MIN_TORCH[0] || (mm[0] === MIN_TORCH[0] && mm[1] < MIN_TORCH[1])) {
    return failed(python, `torch ${r.torch} at ${python} is too old: the workbench's PyTorch trainer (scaleout/) needs torch >= ${MIN_TORCH.join('.')} (torch.optim.AdamW's and StepLR's behaviour, set_to_none, view_as_real on complex weights)`, t0, { ...r, ok: false });
  }
  if (typeof raw.error === 'string') return failed(python, `${python} has torch ${r.torch} but cannot import ${raw.error} (scaleout reads .npy data with NumPy)`, t0, { ...r, ok: false });
  return r;
}

/**
 * Why the engine will not run `python`, or null. The setting was checked when it was saved
 * (main/util/python-path.ts); checked again here, before anything runs it, for a settings file
 * written by hand or by an older version. LINO_PYTHON (the operator's), the default python3 and an
 * interpreter a caller names itself (lino's own flags, tests) are not held to the rule; a missing
 * file is left to the spawn, whose "Python not found" says so.
 */
function refusedPython(python: string): string | null {
  if (!fromSetting.has(python) || python === process.env.LINO_PYTHON || !isAbsolute(python) || !existsSync(python)) return null;
  return pythonPathProblem(python, 'the Python interpreter setting (settings.python)');
}

/** Probes `python` (a command on PATH or a path) within `timeoutMs`; never throws. */
export function probeTorch(python = pythonCommand(), timeoutMs = DEFAULT_PROBE_TIMEOUT_MS): Promise<TorchReport> {
  const t0 = Date.now();
  const refused = refusedPython(python);
  if (refused) return Promise.resolve(failed(python, refused, t0));
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let done = false;
    const finish = (r: TorchReport) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child;
    try {
      child = spawn(python, ['-c', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    } catch (e) {
      resolve(failed(python, `cannot start ${python}: ${errorMessage(e)}`, t0));
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(failed(python, `${python} did not answer the probe within ${(timeoutMs / 1000).toFixed(0)} s (killed); a broken or very slow interpreter`, t0));
    }, timeoutMs);
    // a runaway interpreter printing forever: keep the head (the marked line comes early) and the tail
    child.stdout.on('data', (b: Buffer) => { if (stdout.length < 1 << 20) stdout += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-8192); });
    child.on('error', (e: NodeJS.ErrnoException) => {
      finish(failed(python, e.code === 'ENOENT' ? `Python not found: '${python}' is not a file or a command on PATH` : `cannot start ${python}: ${errorMessage(e)}`, t0));
    });
    child.on('close', (code) => finish(parseProbeOutput(python, stdout, stderr, code, t0)));
  });
}

const cache = new Map<string, Promise<TorchReport>>();

/** probeTorch once per interpreter in this process; `refresh` probes again (after an install). */
export function cachedTorchProbe(python = pythonCommand(), refresh = false): Promise<TorchReport> {
  if (refresh || !cache.has(python)) cache.set(python, probeTorch(python));
  return cache.get(python)!;
}
