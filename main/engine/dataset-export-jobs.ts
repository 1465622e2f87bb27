// A stored dataset's export from the app (the same code as `lino data export`, main/data/export.ts),
// as a job writing into the workspace's exports/ folder.
import { readdirSync, renameSync, statSync } from 'node:fs';
import { removeTemp } from '../util/remove-tree';
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { DatasetStore } from '../data/dataset-store';
import { exportDataset, type ExportFormat, type ExportLayout } from '../data/export';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';
import { freeName } from '../util/free-name';

/** The workspace's dataset store, refusing an id it does not hold (as a call's error, not a failed job). */
export function datasetStore(workspace: string, id: string): DatasetStore {
  const store = new DatasetStore(workspace);
  if (!store.has(id)) throw new ApiError(`no dataset '${id}' in ${store.root}`, 'not_found', { field: 'id' });
  return store;
}

export function exportLabel(p: JobParams['export']): string {
  return `Export dataset ${p.id} (${p.layout}, ${p.format})`;
}

/**
 * Writes into a hidden temporary folder and renames it when complete, so the Export view never
 * lists a half-written export and a cancelled one leaves nothing behind.
 */
export async function runDatasetExport(params: JobParams['export'], ctx: JobContext) {
  const { workspace, id } = params;
  const format: ExportFormat = params.format;
  const layout: ExportLayout = params.layout;
  if (!workspace) throw new ApiError('export: no workspace folder given', 'invalid_params', { field: 'workspace' });
  const store = datasetStore(workspace, id);
  ctx.progress(0.02, 'reading the dataset');
  const ds = await store.open(id);
  if (ctx.signal.aborted) throw new Error('cancelled');
  const exportsDir = join(workspace, 'exports');
  const folder = freeName(exportsDir, `${id}-${layout}-${format}`.replace(/[^A-Za-z0-9._-]+/g, '_'));
  const tmp = join(exportsDir, `.${folder}.${process.pid}.partial`);
  removeTemp(tmp);
  try {
    ctx.progress(0.1, `writing ${format === 'npy' ? '.npy files' : 'a MATLAB v7.3 file'}`);
    await exportDataset(ds, format, tmp, layout, async (done, total) => {
      if (ctx.signal.aborted) throw new Error('cancelled');
      ctx.progress(0.1 + (0.88 * done) / Math.max(1, total), `wrote ${done} of ${total} variables`);
      // the files are written synchronously: between variables the engine reads its messages (a cancel, other calls)
      await new Promise<void>((r) => setImmediate(r));
      if (ctx.signal.aborted) throw new Error('cancelled');
    });
    if (ctx.signal.aborted) throw new Error('cancelled');
    renameSync(tmp, join(exportsDir, folder));
  } catch (e) {
    removeTemp(tmp);
    throw e;
  }
  const files = readdirSync(join(exportsDir, folder)).sort();
  const bytes = files.reduce((t, f) => t + statSync(join(exportsDir, folder, f)).size, 0);
  return { id, format, layout, folder, files: files.map((f) => `${folder}/${f}`), bytes };
}
