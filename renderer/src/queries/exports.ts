// The workspace's exports/ folder as the Export view shows it: its listing, a browser download of
// one file, and Electron's "Save as…" copy.
import type { Result } from '../../../main/api/contract';
import { downloadExport } from '../export/save';
import { requireApi } from '../stores/app-store';
import { useQuery } from './use-query';

const api = requireApi;

/** The listing, read again whenever `version` changes; the last one stays shown meanwhile. */
export const useExportList = (version: string) => useQuery(version, (a) => a.call('exports.list', {}), { keep: true });

/** Browser mode: a file of exports/ as a browser download. */
export async function downloadExportFile(name: string): Promise<void> {
  await downloadExport(api(), name);
}

/** Electron: a native save dialog copies the file where the user wants it (null: cancelled). */
export function saveExportAs(name: string): Promise<Result<'exports.saveAs'>> {
  return api().call('exports.saveAs', { name });
}
