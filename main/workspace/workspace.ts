// A workspace is an ordinary folder holding everything a user makes:
// datasets/<id>/ (manifest.json + arrays), runs/<id>/ (config.json, metrics.jsonl, checkpoints), exports/.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeJsonAtomic } from '../util/atomic-file';
import { RunStore } from '../runs/run-store';
import type { WorkspaceSummary } from '../api/host-records';
import { removeLeftoverTemps, type Leftover } from './leftovers';
import { datasetDisplayName } from '../api/dataset-name';
import { readDatasetLabel } from './dataset-labels';
import { whyNotSolvedDataset, type ManifestSourceLike } from '../data/transfer-source';
import { readWorkspaceSettings } from './workspace-settings';

export const WORKSPACE_DIRS = ['datasets', 'runs', 'exports'] as const;

export function defaultWorkspacePath(): string {
  return join(homedir(), 'LiNO-Workbench');
}

export class Workspace {
  readonly path: string;
  /** Temp files of killed writers removed when this workspace was opened (for the host's log). */
  readonly removedLeftovers: Leftover[];

  private constructor(path: string, removed: Leftover[]) {
    this.path = path;
    this.removedLeftovers = removed;
  }

  /** Opens (creating when needed) the workspace folder at `path`. */
  static open(path: string): Workspace {
    const abs = resolve(path);
    if (existsSync(abs) && !statSync(abs).isDirectory()) {
      throw new Error(`workspace '${abs}' is a file; expected a folder`);
    }
    for (const d of WORKSPACE_DIRS) mkdirSync(join(abs, d), { recursive: true });
    const marker = join(abs, 'workspace.json');
    if (!existsSync(marker)) writeJsonAtomic(marker, { format: 'lino-workspace', version: 1, created: new Date().toISOString() });
    return new Workspace(abs, removeLeftoverTemps(abs));
  }

  dir(kind: (typeof WORKSPACE_DIRS)[number]): string {
    return join(this.path, kind);
  }

  summary(): WorkspaceSummary {
    return {
      path: this.path,
      datasets: this.listWithFile('datasets', 'manifest.json').map(({ id, json }) => datasetEntry(id, json, readDatasetLabel(join(this.dir('datasets'), id)))),
      // Status from status.json, with runs whose trainer is gone listed as interrupted (main/runs/run-store.ts).
      runs: new RunStore(this.dir('runs')).list().map((r) => ({ id: r.id, name: r.name, status: r.state })),
      exports: safeReaddir(this.dir('exports')).filter((n) => !n.startsWith('.')).sort(),
      settings: readWorkspaceSettings(this.path),
    };
  }

  private listWithFile(kind: 'datasets' | 'runs', file: string): { id: string; json: Record<string, unknown> }[] {
    const out: { id: string; json: Record<string, unknown> }[] = [];
    for (const id of safeReaddir(this.dir(kind)).sort()) {
      const p = join(this.dir(kind), id, file);
      if (!existsSync(p)) continue;
      try {
        out.push({ id, json: JSON.parse(readFileSync(p, 'utf8')) });
      } catch {
        // A damaged entry still lists, so the user can see and repair or delete it.
        out.push({ id, json: { name: id, status: 'damaged' } });
      }
    }
    return out;
  }
}

/** A listed dataset: its human name from the manifest and label; the id (content hash) apart. */
function datasetEntry(id: string, json: Record<string, unknown>, label: string | null): WorkspaceSummary['datasets'][number] {
  const benchmark = typeof json.benchmark === 'string' ? json.benchmark : null;
  const grid = Array.isArray(json.grid) && json.grid.every((n) => Number.isInteger(n)) ? (json.grid as number[]) : null;
  const c = json.counts as Record<string, unknown> | undefined;
  const counts = c && ['train', 'val', 'test'].every((k) => Number.isInteger(c[k])) ? { train: c.train as number, val: c.val as number, test: c.test as number } : null;
  const samples = Number.isInteger(json.sourceSamples) ? (json.sourceSamples as number) : null;
  if (json.status === 'damaged') return { id, name: `${id} (damaged manifest)` };
  const notSolvable = whyNotSolvedDataset({ ...json, id } as ManifestSourceLike);
  return { id, name: datasetDisplayName({ id, benchmark, grid, counts, samples, label }), ...(benchmark ? { benchmark } : {}), ...(grid ? { grid } : {}), ...(counts ? { counts } : {}), ...(label ? { label } : {}), ...(notSolvable ? { notSolvable } : {}) };
}

function safeReaddir(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return [];
  }
}
