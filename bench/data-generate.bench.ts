// Generator speed beside straightforward numpy/scipy implementations of the same solvers
// (tools/reference/generators_ref.py), run on the same inputs in the same bench run. The reference
// times only its solver work (no interpreter start-up or imports). Ratio = TypeScript / numpy
// (<= 1.0: TypeScript is at least as fast). Agreement of the two outputs is printed as a check.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sampleRng } from '../main/data/generate/rng';
import { darcySample } from '../main/data/generate/darcy';
import { burgersSolve } from '../main/data/generate/burgers';
import { grf1Coefficients, grf1Sample, nsGrf } from '../main/data/generate/grf';
import { nsSolve, fnoForcing } from '../main/data/generate/navier-stokes';
import { PRESETS, type BurgersParams, type DarcyParams, type NavierStokesParams } from '../main/data/generate/presets';
import { generateDataset } from '../main/data/generate/index';

const PY = '/usr/bin/python3';
const REF = fileURLToPath(new URL('../tools/reference/generators_ref.py', import.meta.url));

function hasNumpy(): boolean {
  if (!existsSync(PY)) return false;
  return spawnSync(PY, ['-c', 'import numpy, scipy'], { stdio: 'ignore' }).status === 0;
}

function f64(a: ArrayLike<number>): Buffer {
  return Buffer.from(Float64Array.from(a).buffer);
}

function runRef(job: Record<string, unknown>, inputs: Record<string, Buffer>): { seconds: number; cpu: number; out: Float64Array } {
  const dir = mkdtempSync(join(tmpdir(), 'lino-genbench-'));
  try {
    for (const [name, buf] of Object.entries(inputs)) writeFileSync(join(dir, name), buf);
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ ...job, dir }));
    const r = spawnSync(PY, [REF, join(dir, 'job.json')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`numpy reference failed: ${r.stderr}`);
    const res = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    const raw = readFileSync(join(dir, 'out.f64'));
    return { seconds: res.seconds, cpu: res.cpu, out: new Float64Array(raw.buffer, raw.byteOffset, raw.length / 8) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function relL2(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0, m = 0;
  for (let i = 0; i < a.length; i++) { d += (a[i] - b[i]) ** 2; m += b[i] ** 2; }
  return Math.sqrt(d / m);
}

// Wall time and CPU time of both sides: the machine is shared, and CPU time is the figure that other
// processes disturb least (both sides compute on one thread here, except the 2-worker row).
interface Timing { wall: number; cpu: number | null }
const rows: string[][] = [];
function fmt(t: Timing | null): string {
  return t === null ? '-' : `${t.wall.toFixed(3)} s${t.cpu === null ? '' : ` (CPU ${t.cpu.toFixed(3)} s)`}`;
}
function row(name: string, ts: Timing, py: Timing | null, agree: string): void {
  const wall = py === null ? '-' : (ts.wall / py.wall).toFixed(2);
  const cpu = py === null || ts.cpu === null || py.cpu === null ? '-' : (ts.cpu / py.cpu).toFixed(2);
  rows.push([name, fmt(ts), fmt(py), wall, cpu, agree]);
  console.log(`${name}: TypeScript ${fmt(ts)}, numpy ${fmt(py)}, ratio wall ${wall}, CPU ${cpu}; ${agree}`);
}
function timed<T>(f: () => T): [T, Timing] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = f();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return [r, { wall, cpu: (c.user + c.system) / 1e6 }];
}
const refTiming = (r: { seconds: number; cpu: number }): Timing => ({ wall: r.seconds, cpu: r.cpu });

/** The normals darcyGrf draws for sample i (same stream and order), for the reference. */
function darcyNormals(seed: number, i: number, s: number): Float64Array {
  const rng = sampleRng(seed, 'darcy', i);
  const xi = new Float64Array(s * s);
  for (let k = 0; k < s * s; k++) xi[k] = rng.normal();
  return xi;
}

export default async function main(): Promise<void> {
  const numpy = hasNumpy();
  if (!numpy) console.log(`(no ${PY} with numpy/scipy: printing TypeScript timings only)`);
  const seed = 0;

  // --- Darcy 421^2, one sample (required <= 1 s). The first 421^2 sample of a process also pays for
  // JIT compilation of the large-grid loops; it is printed, then a warm sample is timed (as every
  // sample after the first one of a dataset).
  {
    const p = { ...(PRESETS.darcy.paper as DarcyParams), samples: 1 };
    const [, cold] = timed(() => darcySample(seed, 1, p));
    console.log(`Darcy 421^2, first sample in this process (cold JIT): ${fmt(cold)}`);
    const [r, ts] = timed(() => darcySample(seed, 0, p));
    let py: Timing | null = null, agree = `${r.stats.solver} ${r.stats.iterations} iterations, residual ${r.stats.relResidual.toExponential(1)}`;
    if (numpy) {
      const ref = runRef({ case: 'darcy', s: 421, samples: 1 }, { 'xi.f64': f64(darcyNormals(seed, 0, 421)) });
      py = refTiming(ref);
      agree += `; vs scipy spsolve: rel L2 ${relL2(r.sol, ref.out).toExponential(1)}`;
    }
    row('Darcy 421^2, 1 sample', ts, py, agree + (ts.wall <= 1 ? ' [wall <= 1 s: ok]' : ' [wall > 1 s: REQUIREMENT MISSED]'));
  }

  // --- Darcy 85^2, 100 samples (one thread, and through generateDataset with 2 workers)
  {
    const p = { ...(PRESETS.darcy.quick as DarcyParams), samples: 100 };
    const [sols, ts] = timed(() => Array.from({ length: 100 }, (_, i) => darcySample(seed, i, p).sol));
    let py: Timing | null = null, agree = '';
    if (numpy) {
      const xi = new Float64Array(100 * 85 * 85);
      for (let i = 0; i < 100; i++) xi.set(darcyNormals(seed, i, 85), i * 85 * 85);
      const ref = runRef({ case: 'darcy', s: 85, samples: 100 }, { 'xi.f64': f64(xi) });
      py = refTiming(ref);
      const all = new Float64Array(100 * 85 * 85);
      sols.forEach((s, i) => all.set(s, i * 85 * 85));
      agree = `rel L2 vs scipy ${relL2(all, ref.out).toExponential(1)}`;
    }
    row('Darcy 85^2, 100 samples, 1 thread', ts, py, agree);
    const t1 = performance.now();
    await generateDataset('darcy', { preset: 'quick', samples: 100, seed });
    row('Darcy 85^2, 100 samples, generateDataset (2 workers)', { wall: (performance.now() - t1) / 1000, cpu: null }, py && { wall: py.wall, cpu: null }, 'wall time, includes worker start-up');
    const t2 = performance.now();
    await generateDataset('darcy', { preset: 'quick', seed });
    const q = (performance.now() - t2) / 1000;
    console.log(`Darcy quick preset (1024 x 85^2, 2 workers): ${q.toFixed(1)} s ${q <= 30 ? '[<= 30 s: ok]' : '[> 30 s: REQUIREMENT MISSED]'}`);
  }

  // --- Navier-Stokes 64^2, one trajectory of 20 frames (quick preset's CN/AB2 adaptive step)
  {
    const p = PRESETS['navier-stokes'].quick as NavierStokesParams;
    const w0 = nsGrf(sampleRng(seed, 'navier-stokes', 0), 64, p.alpha, p.tau);
    const [run, ts] = timed(() => nsSolve(w0, 64, { nu: p.nu, forcing: fnoForcing(64, p.forcing), frames: 20, scheme: 'ab2', cfl: p.cfl }));
    let py: Timing | null = null, agree = `${run.steps} steps`;
    if (numpy) {
      const ref = runRef({ case: 'navier-stokes', s: 64, nu: p.nu, frames: 20, forcing: p.forcing, scheme: 'ab2', dt: null, cfl: p.cfl }, { 'w0.f64': f64(w0) });
      py = refTiming(ref);
      const mine = new Float64Array(64 * 64 * 20);
      for (let t = 0; t < 20; t++) for (let k = 0; k < 64 * 64; k++) mine[k * 20 + t] = run.frames[t][k];
      agree += `; rel L2 vs numpy ${relL2(mine, ref.out).toExponential(1)}`;
    }
    row('Navier-Stokes 64^2, 20 frames', ts, py, agree);
  }

  // --- Burgers 8192, one sample (paper preset grid)
  {
    const p = PRESETS.burgers.paper as BurgersParams;
    const { alpha, beta } = grf1Coefficients(sampleRng(seed, 'burgers', 0), p.modes, p.gamma, p.tau, p.sigma);
    const u0 = grf1Sample(alpha, beta, 8192);
    const [run, ts] = timed(() => burgersSolve(u0, p.nu, p.T, p.cfl));
    let py: Timing | null = null, agree = `${run.steps} steps`;
    if (numpy) {
      const ref = runRef({ case: 'burgers', nu: p.nu, T: p.T, cfl: p.cfl }, { 'u0.f64': f64(u0) });
      py = refTiming(ref);
      agree += `; rel L2 vs numpy ${relL2(run.uT, ref.out).toExponential(1)}`;
    }
    row('Burgers 8192, 1 sample', ts, py, agree);
  }

  console.log('\n| case | TypeScript | numpy/scipy | ratio (wall) | ratio (CPU) | check |\n| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}
