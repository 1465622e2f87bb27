// Saving exports (figures, tables) into the workspace's exports/ folder: names are checked and
// made safe, existing files are never overwritten, writes are atomic.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, EXPORT_MAX_BYTES } from '../api/contract';
import { writeFileAtomic } from '../util/atomic-file';

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
  const dot = safe.lastIndexOf('.');
  let candidate = safe;
  for (let i = 2; existsSync(join(dir, candidate)); i++) candidate = `${safe.slice(0, dot)}-${i}${safe.slice(dot)}`;
  writeFileAtomic(join(dir, candidate), bytes);
  return { name: candidate, size: bytes.length };
}
