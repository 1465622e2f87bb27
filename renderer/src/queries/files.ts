// Choosing files and folders: Electron's native dialog (files.pickOpen), or the in-app browser's
// listings (files.list) in browser mode. Both hand back opaque file references, never paths.
import type { Result } from '../../../main/api/contract';
import { requireApi } from '../stores/app-store';
import { useQuery } from './use-query';

type Root = 'home' | 'workspace';

const api = requireApi;

/** The native open dialog; null when the user cancels. */
export function pickOpen(directory: boolean, title: string): Promise<Result<'files.pickOpen'>> {
  return api().call('files.pickOpen', { directory, title });
}

export function listFiles(root: Root, rel: string): Promise<Result<'files.list'>> {
  return api().call('files.list', { root, rel });
}

/** A folder's listing; the previous one stays shown while the next loads. */
export const useFileListing = (root: Root, rel: string) => useQuery(`${root}|${rel}`, (a) => a.call('files.list', { root, rel }), { keep: true });
