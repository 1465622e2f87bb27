// Fuzz cases for a sweep's files (hardening III): a sweeps/<id>/state.json edited by hand or copied
// from elsewhere, and the trained run folders `lino sweep --collect` brings back. Each case builds a
// small workspace (a grid sweep whose runs exist, a folder outside it and a dataset that must never be
// touched), mutates one file tree, and runs what the app runs: SweepRunner.run() over the state, or
// collectSweepFromCluster() then SweepRunner.run() over what was collected. A case is
//  - 'ok' when it ran and every invariant holds: nothing outside runs/ changed, runs/ holds only run
//    folders (config.json) and no symbolic link, the saved state.json loads again with finite numbers,
//    nothing was written through a link, no prototype was polluted;
//  - a clean refusal ('data-error') when an Error naming the file (state.json, the collected path)
//    stopped it and the invariants hold too;
//  - anything else is a crash (a TypeError, a message naming nothing, a broken invariant).
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { seededRandom } from '../../main/data/stages/split';
import { parseSweepConfig } from '../../main/sweep/sweep-config';
import { openOrCreateSweep, readSweepState } from '../../main/sweep/sweep-state';
import { SweepRunner, type TrialExecutor } from '../../main/sweep/sweep-runner';
import { collectSweepFromCluster } from '../../main/sweep/sweep-export';
import { mutate, type CaseResult } from './cases';

export const SWEEP_FORMATS: Record<string, string[]> = { 'sweep-state': ['state.json'], 'collected-run': ['runs/<id>-cluster/'] };

type Rnd = () => number;
const int = (rnd: Rnd, n: number) => Math.floor(rnd() * n);
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)]!;

const HOSTILE: unknown[] = [
  '../../victim', '../datasets', '.', '', '..', '/', 'a/b', 'a\\b', 'x\u0000y', 'x'.repeat(5000), '__proto__', 'constructor',
  -1, 0, 1.5, 1e308, -1e308, 2 ** 53, 99, 1e6, null, true, false, {}, [], [1], { __proto__: { polluted: 1 } }, 'running', 'done', 'pending', 'failed', 'pruned',
];
/** Number literals JSON parses to non-finite or out-of-range values (written as text). */
const NUMBER_TEXT = ['1e309', '-1e309', '1e999', 'NaN', 'Infinity', '-0', '1e-400', '123456789012345678901234567890', '-1', '0.5'];

const victimText = 'years of work';
const base = { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 2 };

/** A trial trained in no time: two epoch records and a 'done' status, as a real one leaves them. */
const fakeTrain: TrialExecutor = async (run, hooks) => {
  const have = run.readMetrics().records.filter((r) => r.type === 'epoch').length;
  for (let e = have + 1; e <= 2; e++) {
    run.appendMetrics([{ type: 'epoch', epoch: e, train: { loss: 0.5 }, val: { relL2: 0.5 / e } }], true);
    if (hooks.onEpoch(e, 0.5 / e) === 'prune') return { state: 'stopped' };
  }
  run.writeStatus({ state: 'done', pid: null, epoch: 2 });
  return { state: 'done' };
};

interface World { root: string; ws: string; id: string; victim: string; outsideFile: string; statePath: string; runIds: string[] }

/** A workspace with a 2 x 2 grid sweep planned (4 runs), a dataset, and a victim folder beside it. */
function world(root: string): World {
  mkdirSync(root, { recursive: true });
  const ws = join(root, 'ws');
  const victim = join(root, 'victim');
  mkdirSync(victim, { recursive: true });
  writeFileSync(join(victim, 'thesis.tex'), victimText);
  const outsideFile = join(root, 'outside.txt');
  writeFileSync(outsideFile, victimText);
  mkdirSync(join(ws, 'datasets', 'mine'), { recursive: true });
  writeFileSync(join(ws, 'datasets', 'mine', 'manifest.json'), '{}');
  const sweep = parseSweepConfig({ name: 'fz', base, axes: [{ path: 'model.width', values: [4, 6] }], seeds: 2, earlyStopping: { minEpochs: 1, eta: 2 } });
  const { id } = openOrCreateSweep(ws, sweep);
  const runs = new SweepRunner(ws, id, fakeTrain).planAll().map((p) => p.run);
  return { root, ws, id, victim, outsideFile, statePath: join(ws, 'sweeps', id, 'state.json'), runIds: runs.map((r) => r.id) };
}

/** Throws (a crash) when anything outside runs/ and sweeps/ changed, or runs/ holds what is not a run. */
function invariants(w: World, where: string): void {
  const fail = (m: string) => { throw new Error(`${where}: invariant broken: ${m}`); };
  if (readFileSync(join(w.victim, 'thesis.tex'), 'utf8') !== victimText) fail('the folder outside the workspace changed');
  if (readFileSync(w.outsideFile, 'utf8') !== victimText) fail('a file outside the workspace was written (through a link)');
  if (!existsSync(join(w.ws, 'datasets', 'mine', 'manifest.json'))) fail('datasets/ lost a dataset');
  if ((({}) as Record<string, unknown>).polluted !== undefined) fail('Object.prototype polluted');
  const runs = join(w.ws, 'runs');
  for (const n of readdirSync(runs)) {
    const p = join(runs, n);
    if (lstatSync(p).isSymbolicLink()) fail(`runs/${n} is a symbolic link`);
    if (n.startsWith('.')) fail(`runs/${n}: a temporary was left behind`);
    if (!existsSync(join(p, 'config.json'))) fail(`runs/${n} is not a run`);
    const walk = (d: string) => {
      for (const e of readdirSync(d)) {
        const q = join(d, e);
        const st = lstatSync(q);
        if (st.isSymbolicLink()) fail(`${q} is a symbolic link inside the workspace`);
        if (st.isDirectory()) walk(q);
      }
    };
    walk(p);
  }
  for (const id of w.runIds) if (!existsSync(join(runs, id, 'config.json'))) fail(`run ${id} was removed`);
}

/** The saved state loads again; every number in it finite. */
function stateLoads(w: World, where: string): void {
  let s;
  try {
    s = readSweepState(w.ws, w.id);
  } catch (e) {
    throw new Error(`${where}: invariant broken: the state the runner saved does not load (${(e as Error).message.slice(0, 200)})`);
  }
  for (const t of s.trials) if (!Number.isFinite(t.epochs) || (t.best !== null && !Number.isFinite(t.best))) throw new Error(`${where}: invariant broken: trial ${t.runId} saved with epochs ${t.epochs}, best ${t.best}`);
}

const INTERNAL = /Cannot read propert|is not a function|is not iterable|is not defined|Maximum call stack|Invalid array length|Invalid string length|undefined \(reading/;

/** A refusal is clean when it is an Error (not a TypeError/RangeError) naming one of `names` and no JS internals. */
function clean(e: unknown, names: string[]): boolean {
  if (!(e instanceof Error) || e instanceof TypeError || e instanceof RangeError || e instanceof SyntaxError) return false;
  return names.some((n) => e.message.includes(n)) && !INTERNAL.test(e.message);
}

/** A state with trials in every state, and runs that trained part of the way. */
function seededState(w: World): Record<string, unknown> {
  const s = JSON.parse(readFileSync(w.statePath, 'utf8'));
  const [t0, t1, t2] = s.trials;
  Object.assign(t0, { state: 'done', epochs: 2, best: 0.25, rungHistory: [{ epoch: 1, valRelL2: 0.5, decision: 'continue' }] });
  Object.assign(t1, { state: 'running', epochs: 1, best: 0.5 });
  Object.assign(t2, { state: 'failed', reason: 'being trained by another writer' });
  const write = (id: string, epochs: number, state: string) => {
    const dir = join(w.ws, 'runs', id);
    writeFileSync(join(dir, 'metrics.jsonl'), Array.from({ length: epochs }, (_, i) => JSON.stringify({ type: 'epoch', epoch: i + 1, val: { relL2: 0.5 / (i + 1) } }) + '\n').join(''));
    writeFileSync(join(dir, 'status.json'), JSON.stringify({ state, pid: null, epoch: epochs }));
  };
  write(w.runIds[0]!, 2, 'done');
  write(w.runIds[1]!, 1, 'stopped');
  return s;
}

/** Every [parent, key] of a JSON value, for a structural mutation. */
function slots(v: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): typeof out {
  if (Array.isArray(v)) v.forEach((x, i) => { out.push([v, i]); slots(x, out); });
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push([v as Record<string, unknown>, k]); slots(x, out); }
  return out;
}

/** One to three structural edits of the state, or a byte-level or number-literal mutation of its text. */
function mutateState(s: Record<string, unknown>, rnd: Rnd): { text: string; desc: string } {
  const kind = int(rnd, 5);
  if (kind <= 2) {
    const edits: string[] = [];
    for (let n = 1 + int(rnd, 3); n > 0; n--) {
      const all = slots(s);
      const [parent, key] = pick(rnd, all);
      const op = int(rnd, 4);
      if (op === 0 && !Array.isArray(parent)) { delete parent[key as string]; edits.push(`deleted ${key}`); }
      else if (op === 1 && Array.isArray(parent) && parent.length) { parent.push(structuredClone(parent[int(rnd, parent.length)])); edits.push(`duplicated an entry of an array at ${key}`); }
      else { const v = pick(rnd, HOSTILE); (parent as Record<string, unknown>)[key as string] = structuredClone(v); edits.push(`${key} = ${JSON.stringify(v)?.slice(0, 40)}`); }
    }
    return { text: JSON.stringify(s), desc: edits.join('; ') };
  }
  const text = JSON.stringify(s);
  if (kind === 3) {
    const nums = [...text.matchAll(/-?\d+(\.\d+)?(e[-+]?\d+)?/g)];
    const m = pick(rnd, nums);
    const lit = pick(rnd, NUMBER_TEXT);
    return { text: text.slice(0, m.index) + lit + text.slice(m.index! + m[0].length), desc: `number '${m[0]}' at ${m.index} -> ${lit}` };
  }
  const { bytes, desc } = mutate(new TextEncoder().encode(text), rnd);
  return { text: Buffer.from(bytes).toString('latin1'), desc };
}

async function stateCase(w: World, rnd: Rnd): Promise<CaseResult> {
  const { text, desc } = mutateState(seededState(w), rnd);
  writeFileSync(w.statePath, text);
  const where = `sweep-state (${desc.slice(0, 300)})`;
  let runner: SweepRunner;
  try {
    runner = new SweepRunner(w.ws, w.id, fakeTrain);
  } catch (e) {
    if (!clean(e, ['state.json', 'sweep.json'])) throw new Error(`${where}: ${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 300)}`);
    if (readFileSync(w.statePath, 'utf8') !== text) throw new Error(`${where}: invariant broken: a refused state was rewritten`);
    invariants(w, where);
    return { outcome: 'data-error', desc };
  }
  const end = await runner.run();
  if (end.reason && INTERNAL.test(end.reason)) throw new Error(`${where}: the sweep ended '${end.status}' with an internal error: ${end.reason.slice(0, 300)}`);
  invariants(w, where);
  stateLoads(w, where);
  return { outcome: end.status === 'failed' ? 'data-error' : 'ok', desc };
}

/** The cluster's copy of a trained trial: config, status, metrics (a step, two epochs), a checkpoint file. */
function trainedFolder(w: World, cluster: string, runId: string): string {
  const dir = join(cluster, runId, 'runs', `${runId}-cluster`);
  mkdirSync(join(dir, 'checkpoints', 'last'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), readFileSync(join(w.ws, 'runs', runId, 'config.json')));
  writeFileSync(join(dir, 'status.json'), JSON.stringify({ state: 'done', pid: null, epoch: 2 }));
  writeFileSync(join(dir, 'metrics.jsonl'), [{ type: 'step', step: 1, loss: 0.5 }, { type: 'epoch', epoch: 1, train: { loss: 0.5 }, val: { relL2: 0.4 } }, { type: 'epoch', epoch: 2, train: { loss: 0.4 }, val: { relL2: 0.3 } }].map((r) => JSON.stringify(r) + '\n').join(''));
  writeFileSync(join(dir, 'checkpoints', 'last', 'state.json'), '{"epoch":2}');
  writeFileSync(join(dir, 'events.log'), 'trained\n');
  return dir;
}

/** Whether `p` is a plain file the fuzzer may rewrite (never through a link an earlier mutation made). */
function plainFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** Whether a folder between `root` and `path` (or `path` itself) is a symbolic link. */
function throughLink(root: string, path: string): boolean {
  let p = path;
  while (p.length > root.length) {
    try {
      if (lstatSync(p).isSymbolicLink()) return true;
    } catch {
      // not there (yet)
    }
    p = dirname(p);
  }
  return false;
}

/** One hostile change to a collected folder (returns what it did). */
function mutateCollected(w: World, cluster: string, dir: string, runId: string, rnd: Rnd): string {
  const file = pick(rnd, ['metrics.jsonl', 'metrics.jsonl', 'metrics.jsonl', 'status.json', 'config.json', 'checkpoints/last/state.json']);
  const path = join(dir, file);
  // never through a link an earlier mutation made (the fuzzer itself must not write outside)
  if (throughLink(cluster, path)) return 'nothing (its path goes through a link)';
  let kind = int(rnd, 9);
  // an earlier mutation made the path a link, a folder or a FIFO, or moved its folder: change the structure instead
  if (kind <= 3 && !plainFile(path)) kind = 7;
  if ((kind === 4 || kind === 6) && !existsSync(dir)) kind = 7;
  if (kind <= 2 && file === 'metrics.jsonl') {
    const lines = readFileSync(path, 'utf8').split('\n');
    const li = int(rnd, lines.length - 1);
    const nums = [...lines[li]!.matchAll(/-?\d+(\.\d+)?(e[-+]?\d+)?/g)];
    const lit = rnd() < 0.6 ? pick(rnd, NUMBER_TEXT) : JSON.stringify(pick(rnd, HOSTILE));
    if (nums.length) {
      const m = pick(rnd, nums);
      lines[li] = lines[li]!.slice(0, m.index) + lit + lines[li]!.slice(m.index! + m[0].length);
    } else lines[li] = lit;
    writeFileSync(path, lines.join('\n'));
    return `${file} line ${li + 1}: a number -> ${lit.slice(0, 40)}`;
  }
  if (kind === 3) {
    const { bytes, desc } = mutate(new Uint8Array(readFileSync(path)), rnd);
    writeFileSync(path, bytes);
    return `${file}: ${desc}`;
  }
  if (kind === 4) {
    // a link where a file or folder was: to a file outside, a folder outside, nowhere, or itself
    const target = pick(rnd, [w.outsideFile, w.victim, join(w.root, 'nowhere'), path, join(w.ws, 'runs')]);
    const at = pick(rnd, [path, join(dir, 'checkpoints'), join(dir, 'extra-link')]);
    rmSync(at, { recursive: true, force: true });
    symlinkSync(target, at);
    return `${at.slice(cluster.length)} -> link to ${target.slice(w.root.length)}`;
  }
  if (kind === 5) {
    // the trial folder or its runs/ folder a link to a real trained copy elsewhere
    const elsewhere = join(w.root, `elsewhere-${int(rnd, 1e9)}`);
    const which = rnd() < 0.5 ? join(cluster, runId) : join(cluster, runId, 'runs');
    mkdirSync(elsewhere, { recursive: true });
    renameSync(which, join(elsewhere, 'moved'));
    symlinkSync(join(elsewhere, 'moved'), which);
    return `${which.slice(cluster.length)} is a link to a folder outside`;
  }
  if (kind === 6) {
    rmSync(path, { force: true });
    if (rnd() < 0.5) { mkdirSync(path); return `${file} is a folder`; }
    spawnSync('mkfifo', [path]);
    return `${file} is a FIFO`;
  }
  if (kind === 7) {
    if (!existsSync(dir) || lstatSync(dir).isSymbolicLink()) return 'nothing (its folder is gone)';
    let d = join(dir, 'deep');
    const depth = 4 + int(rnd, 10);
    for (let i = 0; i < depth; i++) d = join(d, `d${i}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'f'), 'x');
    return `folders ${depth} deep`;
  }
  if (!existsSync(dir) || lstatSync(dir).isSymbolicLink()) return 'nothing (its folder is gone)';
  rmSync(path, { force: true });
  return `${file} removed`;
}

async function collectCase(w: World, rnd: Rnd, i: number): Promise<CaseResult> {
  const cluster = join(w.root, 'cluster');
  const trained = w.runIds.slice(0, 1 + int(rnd, w.runIds.length)).map((id) => ({ id, dir: trainedFolder(w, cluster, id) }));
  const descs: string[] = [];
  for (let n = int(rnd, 3); n > 0; n--) {
    const t = pick(rnd, trained);
    try {
      descs.push(mutateCollected(w, cluster, t.dir, t.id, rnd));
    } catch (e) {
      // an earlier mutation made this one impossible (its path under a file, a folder where a file was)
      descs.push(`a mutation skipped (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const desc = descs.join('; ') || 'unmutated';
  const where = `collected-run case ${i} (${desc.slice(0, 300)})`;
  try {
    collectSweepFromCluster(w.ws, w.id, cluster);
  } catch (e) {
    if (!clean(e, [cluster, w.root])) throw new Error(`${where}: ${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 300)}`);
    invariants(w, where);
    for (const id of w.runIds) if (existsSync(join(w.ws, 'runs', id, 'metrics.jsonl'))) throw new Error(`${where}: invariant broken: a refused collect copied ${id}`);
    return { outcome: 'data-error', desc };
  }
  invariants(w, where);
  const end = await new SweepRunner(w.ws, w.id, fakeTrain).run();
  if (end.reason && INTERNAL.test(end.reason)) throw new Error(`${where}: the sweep ended with an internal error: ${end.reason.slice(0, 300)}`);
  invariants(w, where);
  stateLoads(w, where);
  return { outcome: 'ok', desc };
}

/**
 * Where the cases' workspaces go: a memory file system when there is one. Every state and run file
 * is written atomically with two fsyncs, which on a disk made a case cost ~300 ms, not the case's work.
 */
let scratch: string | null = null;
function scratchFor(tmp: string): string {
  if (scratch === null) {
    scratch = tmp;
    try {
      if (statSync('/dev/shm').isDirectory()) {
        scratch = mkdtempSync(join('/dev/shm', 'lino-fuzz-sweep-'));
        const made = scratch;
        process.on('exit', () => rmSync(made, { recursive: true, force: true }));
      }
    } catch {
      // no /dev/shm: the worker's own folder
    }
  }
  return scratch;
}

/** Case `i` of 'sweep-state' or 'collected-run' in a fresh folder; throws on a crash. */
export async function runSweepCase(format: string, seed: number, i: number, tmp: string): Promise<CaseResult> {
  const rnd = seededRandom(seed * 1000003 + i);
  const root = join(scratchFor(tmp), `${format}-${i}`);
  try {
    const w = world(root);
    return format === 'sweep-state' ? await stateCase(w, rnd) : await collectCase(w, rnd, i);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The unmutated files run through: the state resumes, the collect copies. */
export async function readSweepPristine(format: string, tmp: string): Promise<void> {
  const root = join(scratchFor(tmp), `${format}-pristine`);
  try {
    const w = world(root);
    if (format === 'sweep-state') {
      writeFileSync(w.statePath, JSON.stringify(seededState(w)));
      const end = await new SweepRunner(w.ws, w.id, fakeTrain).run();
      if (end.status !== 'done') throw new Error(`the pristine state ended ${end.status}: ${end.reason}`);
    } else {
      for (const id of w.runIds) trainedFolder(w, join(root, 'cluster'), id);
      const r = collectSweepFromCluster(w.ws, w.id, join(root, 'cluster'));
      if (r.trials.length !== w.runIds.length) throw new Error(`the pristine collect took ${r.trials.length} of ${w.runIds.length}`);
    }
    invariants(w, `${format} pristine`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
