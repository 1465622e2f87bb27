// The contract types the engine's handlers and job kinds: a handler taking the wrong parameters does
// not compile (the @ts-expect-error lines fail `npm run typecheck` once they stop being errors), and
// every job kind is declared once, with either its parameters or the call that starts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_KINDS, JobKind, isMethod, parseParams, type EngineMethod, type EngineParams, type Result } from '../../../main/api/contract';

type Handler<M extends EngineMethod> = (params: EngineParams<M>) => Result<M> | Promise<Result<M>>;

// engine.ping's `t` is a number.
// @ts-expect-error a handler that takes `t` as a string
export const wrongParam: Handler<'engine.ping'> = (p: { t: string }) => ({ t: Number(p.t), engineTime: 0 });
// runs.exportForCluster is routed 'engine+workspace': its handler gets the host's workspace folder.
export const withWorkspace: Handler<'runs.exportForCluster'> = (p) => ({ ...fakeJob, label: `${p.workspace}/${p.id} ${p.nprocPerNode}` });
// datasets.inspect's file reference arrives resolved, as `path`; the reference itself is gone.
export const resolvedFile: Handler<'datasets.inspect'> = (p) => ({ name: p.path, format: 'npy', variables: [] });
// @ts-expect-error the FileRef field is not there any more
export const unresolvedFile: Handler<'datasets.inspect'> = (p) => ({ name: p.file, format: 'npy', variables: [] });
// @ts-expect-error a result of the wrong shape
export const wrongResult: Handler<'engine.ping'> = () => ({ t: 'now' });

const fakeJob = { id: 'j', kind: 'export', state: 'queued', label: '', progress: 0, etaSeconds: null, startedAt: null, endedAt: null } as const;

test('the job kinds come from one declaration: each has its parameters or the call that starts it', () => {
  assert.deepEqual(JobKind.options, Object.keys(JOB_KINDS));
  assert.equal(JobKind.options.length, 12);
  for (const [kind, spec] of Object.entries(JOB_KINDS)) {
    if ('params' in spec) continue;
    assert.ok(isMethod(spec.through), `${kind}: ${spec.through} is a call of the contract`);
    assert.throws(() => parseParams('jobs.start', { kind, params: {} }), (e: Error) => e.message.includes(`start through ${spec.through}`), kind);
  }
});

test('jobs.start refuses a kind that is not declared, naming the field', () => {
  assert.throws(() => parseParams('jobs.start', { kind: 'mine', params: {} }), /invalid parameter 'kind'/);
});
