// "Run on a cluster…" from the app: the same export as `lino export-run` (main/train/cluster-export.ts)
// as a job with progress and cancel. The host picks the destination, a new folder under the
// workspace's exports/ named after the run; a client names only the run.
import { renameSync } from 'node:fs';
import { removeTemp } from '../util/remove-tree';
import { join, relative } from 'node:path';
import { ApiError } from '../api/api-error';
import { RunStore } from '../runs/run-store';
import { exportRunForCluster } from '../train/cluster-export';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';
import { freeName } from '../util/free-name';

export function clusterExportLabel(p: JobParams['cluster-export']): string {
  return `Export run ${p.runId} for a cluster`;
}

/**
 * Writes into a hidden temporary folder and renames it when complete, so exports/ never lists a
 * half-written export and a cancelled one leaves nothing behind.
 */
export async function runClusterExport(p: JobParams['cluster-export'], ctx: JobContext) {
  const workspace = p.workspace;
  if (!workspace) throw new ApiError('runs.exportForCluster: no workspace folder given', 'invalid_params', { field: 'workspace' });
  const run = new RunStore(join(workspace, 'runs')).open(p.runId);
  const exportsDir = join(workspace, 'exports');
  const folder = freeName(exportsDir, `${run.id}-cluster`);
  const tmp = join(exportsDir, `.${folder}.${process.pid}.partial`);
  removeTemp(tmp);
  let r;
  try {
    r = await exportRunForCluster(run, tmp, {
      nprocPerNode: p.nprocPerNode,
      nodes: p.nodes,
      workspace,
      onProgress: (f, m) => {
        if (ctx.signal.aborted) throw new Error('cancelled');
        ctx.progress(f, m);
      },
    });
    if (ctx.signal.aborted) throw new Error('cancelled');
    renameSync(tmp, join(exportsDir, folder));
  } catch (e) {
    removeTemp(tmp);
    throw e;
  }
  const out = join(exportsDir, folder);
  const files = r.files.map((f) => `${folder}/${relative(tmp, f)}`).sort();
  return { runId: run.id, folder, path: out, runDir: r.runDir, command: r.command, files };
}
