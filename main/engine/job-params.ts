// Each job kind's parameters as its body gets them, derived from the one declaration of the kinds
// (JOB_KINDS, main/api/jobs.ts) and the route table: a kind jobs.start accepts gets its declared
// params (its file reference resolved to `path`, the workspace added); a kind that starts `through`
// a call gets that call's parameters as the engine's handler holds them (EngineParams), unless the
// call hands its job other names (Reshaped). A job body typed from here cannot read a field its
// kind does not have, and a start with a wrong parameter type does not compile.
import type { z } from 'zod';
import type { EngineMethod, EngineParams, JobKind } from '../api/contract';
import type { JOB_KINDS } from '../api/jobs';
import type { PlaygroundFields } from '../runs/playground-records';
import type { PlaygroundRun } from '../train/playground-run';
import type { SolveExtra } from '../data/generate/playground-solver';
import type { TorchReport } from '../train/torch-report';

type Workspace = { workspace: string };
/** What the host does to a jobs.start kind's parameters (files: ['params.file']): the reference becomes the chosen path. */
type HostResolved<T> = 'file' extends keyof T ? Omit<T, 'file'> & { path: string } : T;

type Declared<K extends JobKind> = (typeof JOB_KINDS)[K] extends { params: infer S extends z.ZodType }
  ? HostResolved<z.output<S>> & Workspace
  : (typeof JOB_KINDS)[K] extends { through: infer M extends EngineMethod }
    ? EngineParams<M>
    : never;

/** Kinds whose starting call gives its job parameters of other names (a run's `id` as `runId`, defaults applied). */
interface Reshaped {
  /** train.start (host) and train.resume: the run's folder, created by the host. */
  train: Workspace & { runId: string };
  evaluate: Omit<EngineParams<'runs.evaluate'>, 'id'> & { runId: string };
  'cluster-export': Workspace & { runId: string; nprocPerNode: number; nodes: number };
  /** playground.solve: the run's benchmark and generator parameters, read once the input was checked against the run. */
  /** train.measureTorchSpeed: the interpreter and its probe, as the engine thread found them. */
  'torch-speed': EngineParams<'train.measureTorchSpeed'> & { python: string; probe: TorchReport };
  'playground-solve': Workspace & { runId: string; input: PlaygroundFields; extra?: SolveExtra } & Pick<PlaygroundRun, 'benchmark' | 'generator'>;
}

/** Reshaped names only declared kinds (true, or this does not compile): a renamed or removed kind leaves no stale line. */
type ReshapesDeclaredKinds = Exclude<keyof Reshaped, JobKind> extends never ? true : false;
const reshapesDeclaredKinds: ReshapesDeclaredKinds = true;
void reshapesDeclaredKinds;

/** The parameters of each job kind (JobQueue<JobParams> is the engine's queue). */
export type JobParams = { [K in JobKind]: K extends keyof Reshaped ? Reshaped[K] : Declared<K> };

/** A jobs.start call's kind and parameters, as the host forwards them. */
export type StartedJob = EngineParams<'jobs.start'>;
