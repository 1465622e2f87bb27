// Saving exports (figures, tables) into the workspace's exports/ folder: names are checked and
// made safe, existing files are never overwritten, writes are atomic.
import { readUserFile } from '../util/user-file';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { ApiError, EXPORT_MAX_BYTES, type ExportEntry } from '../api/contract';
import { copyFileAtomic, writeFileAtomic } from '../util/atomic-file';
import { freeName } from '../util/free-name';
import { errorMessage } from '../util/error-message';

/** The file types an export may have, with the extension each gets. */
export const EXPORT_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/x-tex': 'tex',
  'text/x-tex': 'tex',
  'application/json': 'json',
  'text/plain': 'txt',
};

/**
 * Refuses names with path separators (a renderer never chooses a folder), then keeps letters,
 * digits, '.', '-' and '_', and makes the extension match the MIME type.
 */
export function safeExportName(name: string, mime: string): string {
  if (/[\\/\0]/.test(name)) throw new ApiError(`export name '${name}' contains a path separator; expected a plain file name`, 'invalid_params', { field: 'name' });
  const ext = EXPORT_TYPES[mime];
  if (!ext) throw new ApiError(`export type '${mime}' is not one of ${Object.keys(EXPORT_TYPES).join(', ')}`, 'invalid_params', { field: 'mime' });
  let base = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+/g, '_').replace(/^[._-]+/, '');
  base = base.replace(new RegExp(`\\.${ext}$`, 'i'), '').replace(/\.+$/, '').slice(0, 120);
  if (!base) base = 'export';
  return `${base}.${ext}`;
}

/** Writes the export; a name already taken gets -2, -3, ... so no earlier export is lost. */
export function saveExportFile(dir: string, name: string, mime: string, base64: string): { name: string; size: number } {
  const safe = safeExportName(name, mime);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > EXPORT_MAX_BYTES) {
    throw new ApiError(`export '${safe}' is ${(bytes.length / 2 ** 20).toFixed(1)} MiB; the limit is ${EXPORT_MAX_BYTES / 2 ** 20} MiB`, 'invalid_params', { field: 'data' });
  }
  if (bytes.length === 0) throw new ApiError(`export '${safe}' is empty`, 'invalid_params', { field: 'data' });
  const dot = safe.lastIndexOf('.'); // safeExportName always ends in the MIME type's extension
  const candidate = freeName(dir, safe.slice(0, dot), safe.slice(dot));
  writeFileAtomic(join(dir, candidate), bytes);
  return { name: candidate, size: bytes.length };
}

/** MIME type by extension, for reading an export back (downloads); unknown ones are octet-stream. */
export function exportMime(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const known = Object.entries(EXPORT_TYPES).find(([, e]) => e === ext)?.[0];
  return known ?? ({ npy: 'application/octet-stream', mat: 'application/x-matlab-data', html: 'text/html' } as Record<string, string>)[ext] ?? 'application/octet-stream';
}

/**
 * Files in exports/ and one level of sub-folders (a dataset export writes a folder), newest first.
 * Hidden entries (temporary files of a write in progress) and links are left out.
 */
export function listExportFiles(dir: string): ExportEntry[] {
  const out: ExportEntry[] = [];
  const visit = (rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel));
    } catch {
      return;
    }
    for (const n of names) {
      if (n.startsWith('.')) continue;
      const r = rel ? `${rel}/${n}` : n;
      let st;
      try {
        st = lstatSync(join(dir, r));
      } catch {
        continue;
      }
      if (st.isDirectory() && depth === 0) visit(r, 1);
      else if (st.isFile()) out.push({ name: r, size: st.size, modified: st.mtime.toISOString() });
    }
  };
  visit('', 0);
  return out.sort((a, b) => b.modified.localeCompare(a.modified) || a.name.localeCompare(b.name));
}

/** The real path of export `name` (contract-checked ExportPath); refuses what resolves outside `dir`. */
export function exportSource(dir: string, name: string): string {
  const root = realpathSync(dir);
  let real: string;
  try {
    real = realpathSync(join(root, ...name.split('/')));
  } catch {
    throw new ApiError(`no export '${name}' in ${dir}`, 'not_found', { field: 'name' });
  }
  if (!real.startsWith(root + sep)) throw new ApiError(`'${name}' is outside the exports folder`, 'forbidden', { field: 'name' });
  if (!statSync(real).isFile()) throw new ApiError(`export '${name}' is not a file`, 'invalid_params', { field: 'name' });
  return real;
}

/** One export's bytes, for a browser download. */
export function readExportFile(dir: string, name: string): { name: string; mime: string; size: number; data: string } {
  const real = exportSource(dir, name);
  const size = statSync(real).size;
  if (size > EXPORT_MAX_BYTES) {
    throw new ApiError(`export '${name}' is ${(size / 2 ** 20).toFixed(1)} MiB, more than the ${EXPORT_MAX_BYTES / 2 ** 20} MiB a download may be; open it from ${dir}`, 'invalid_params', { field: 'name', file: real });
  }
  return { name, mime: exportMime(name), size, data: Buffer.from(readUserFile(real, { what: 'an export', maxBytes: EXPORT_MAX_BYTES })).toString('base64') };
}

/** Copies an export to a path the user chose in a native save dialog (atomic: no half-written copy). */
export function copyExportTo(dir: string, name: string, dest: string): { path: string } {
  if (!isAbsolute(dest)) throw new ApiError(`save path '${dest}' is not absolute`, 'invalid_params', { field: 'path' });
  const src = exportSource(dir, name);
  try {
    copyFileAtomic(src, dest);
  } catch (e) {
    throw new ApiError(`could not write '${dest}': ${errorMessage(e)}`, 'failed', { file: dest });
  }
  return { path: dest };
}
