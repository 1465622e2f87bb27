// Options for Electron's native save dialog when the user saves an export elsewhere. Free of
// runtime Electron imports, so it is tested in plain Node.
import { join } from 'node:path';

export interface SaveDialogOptionsLike {
  title?: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
}

const KINDS: Record<string, string> = {
  png: 'PNG image',
  svg: 'SVG image',
  pdf: 'PDF document',
  csv: 'CSV table',
  tex: 'LaTeX table',
  json: 'JSON',
  txt: 'Text',
  npy: 'NumPy array',
  mat: 'MATLAB data',
};

/** The dialog starts in `dir` with the export's own name, filtered to its type (plus all files). */
export function saveDialogOptions(defaultName: string, dir: string, title?: string): SaveDialogOptionsLike {
  const base = defaultName.split(/[\\/]/).pop() || 'export';
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const filters = ext ? [{ name: KINDS[ext] ?? `.${ext} file`, extensions: [ext] }] : [];
  return { title, defaultPath: join(dir, base), filters: [...filters, { name: 'All files', extensions: ['*'] }] };
}
