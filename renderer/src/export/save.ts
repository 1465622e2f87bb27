// Saving an export: into the workspace's exports/ folder through the API (both hosts), and in
// browser mode also as a browser download, since the user may not look at the workspace folder.
import type { HostInfo, WorkbenchApi } from '../../../main/api/contract';
import { bytesToBase64 } from './bytes';

export async function saveExport(api: WorkbenchApi, host: HostInfo | null, name: string, mime: string, bytes: Uint8Array): Promise<string> {
  const saved = await api.call('exports.save', { name, mime, data: bytesToBase64(bytes) });
  if (host?.kind === 'browser') {
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: mime }));
    const a = document.createElement('a');
    a.href = url;
    a.download = saved.name;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return saved.name;
}

/** Browser mode: an export already in exports/ (read back with exports.read) as a browser download. */
export async function downloadExport(api: WorkbenchApi, name: string): Promise<number> {
  const r = await api.call('exports.read', { name });
  const bin = atob(r.data);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: r.mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name.split('/').pop() ?? name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return bytes.length;
}
