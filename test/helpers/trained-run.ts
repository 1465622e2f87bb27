// Train-and-wait through the service both hosts use: one loop for the integration tests'
// engineService().trained and the browser tests' setups; and sharedRun, a setup's run trained once
// per test invocation.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { LOCK_FILE } from '../../main/runs/run-lock';
import type { RunSummary } from '../../main/api/contract';
import type { WorkbenchService } from '../../main/services/workbench-service';

/** Starts a run with train.start and waits until it has ended (done, failed or stopped); answers its summary. */
export async function trainedRun(service: WorkbenchService, config: Record<string, unknown>, ms = 100_000): Promise<RunSummary> {
  const { runId } = (await service.call('train.start', { config } as never)) as { runId: string };
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const r = ((await service.call('runs.list', {})) as RunSummary[]).find((x) => x.id === runId);
    if (r && ['done', 'failed', 'stopped'].includes(r.state)) return r;
    if (Date.now() - t0 > ms) throw new Error(`run ${runId} (${String(config.name)}) did not finish training in ${ms} ms`);
  }
}

/** trainedRun that must end done (the reason shown otherwise); answers the run's id. */
export async function trainedId(service: WorkbenchService, config: Record<string, unknown>, ms = 120_000): Promise<string> {
  const r = await trainedRun(service, config, ms);
  assert.equal(r.state, 'done', `${String(config.name)}: ${r.reason ?? ''}`);
  return r.id;
}

// A run that only sets up a test (the test is not about training it) is trained once per test
// invocation: scripts/test.mjs names a fresh folder in LINO_RUN_CACHE, the first file to ask for a
// configuration trains it through the real engine (as trainedRun) and keeps a copy of the finished run
// folder there, and every later ask, from any file, copies that folder into its own workspace. The
// first asker holds a lock folder while it trains, so that two files run side by side train it once.
// Without LINO_RUN_CACHE (a file run on its own) every ask trains.

/** Waits this long between looks at a lock another file holds. */
const LOCK_POLL_MS = 100;

/** The configuration and the backend a file forces on its engine (LINO_BACKEND): a run is shared only where both agree. */
const cacheKey = (config: Record<string, unknown>) => createHash('sha256').update(stableJson({ config, backend: process.env.LINO_BACKEND ?? null })).digest('hex').slice(0, 20);

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The kept run's id under a key's entry (<cache>/<key>/runs/<runId>, with datasets/<id> of its generated data), if kept. */
function kept(entry: string): string | null {
  if (!existsSync(entry)) return null;
  return readdirSync(join(entry, 'runs'))[0] ?? null;
}

/**
 * Copies the run folder and the dataset its generated data were kept as (config.json's resolvedData.id)
 * between workspaces (a cache entry is laid out as one), timestamps kept: an evaluation cache keys on them.
 */
function copyRun(from: string, to: string, id: string): void {
  const runDir = join(from, 'runs', id);
  cpSync(runDir, join(to, 'runs', id), { recursive: true, preserveTimestamps: true, filter: (src) => basename(src) !== LOCK_FILE });
  const dataId = (JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) as { resolvedData?: { id?: string | null } }).resolvedData?.id;
  if (dataId && existsSync(join(from, 'datasets', dataId)) && !existsSync(join(to, 'datasets', dataId))) {
    cpSync(join(from, 'datasets', dataId), join(to, 'datasets', dataId), { recursive: true, preserveTimestamps: true });
  }
}

async function listed(service: WorkbenchService, id: string): Promise<RunSummary> {
  const r = ((await service.call('runs.list', {})) as RunSummary[]).find((x) => x.id === id);
  assert.ok(r, `run ${id} copied into the workspace is not listed`);
  return r;
}

/**
 * A finished run of `config` in `workspace` (the service's): trained once per test invocation and
 * copied into each workspace that asks (see above). Only for configurations whose data is generated
 * or synthetic (a run needs nothing outside its folder), and only where the test is not about training.
 */
export async function sharedRun(service: WorkbenchService, workspace: string, config: Record<string, unknown>, ms = 120_000): Promise<RunSummary> {
  const root = process.env.LINO_RUN_CACHE;
  const data = config.data as { kind?: string } | undefined;
  assert.ok(data && ['generate', 'synthetic'].includes(data.kind ?? ''), `sharedRun: ${String(config.name)}: only generated or synthetic data (a run that names a dataset or a file needs more than its folder)`);
  if (!root) return trainedRun(service, config, ms);
  const entry = join(root, cacheKey(config));
  const lock = `${entry}.lock`;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, LOCK_POLL_MS))) {
    const id = kept(entry);
    if (id && existsSync(join(workspace, 'runs', id))) return trainedRun(service, config, ms); // a second run of it here
    if (id) {
      copyRun(entry, workspace, id);
      return listed(service, id);
    }
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() - t0 > ms) throw new Error(`sharedRun: ${String(config.name)}: another test file has held ${lock} for ${ms} ms`);
      continue;
    }
    try {
      const r = await trainedRun(service, config, ms);
      if (r.state === 'done') {
        // kept as the folder was when training ended (before the test uses it), published by one rename
        const staging = `${entry}.staging`;
        rmSync(staging, { recursive: true, force: true });
        copyRun(workspace, staging, r.id);
        renameSync(staging, entry);
      }
      return r;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** sharedRun that must end done (the reason shown otherwise); answers the run's id. */
export async function sharedId(service: WorkbenchService, workspace: string, config: Record<string, unknown>, ms = 120_000): Promise<string> {
  const r = await sharedRun(service, workspace, config, ms);
  assert.equal(r.state, 'done', `${String(config.name)}: ${r.reason ?? ''}`);
  return r.id;
}
