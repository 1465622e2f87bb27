// File references and the exports/ folder's names as they cross the wire: zod schemas only.
import { z } from 'zod';

/** An opaque handle for a file the user chose (dialog or in-app browser); never a raw path from the renderer. */
export const FileRef = z.string().regex(/^f_[A-Za-z0-9_-]{8,64}$/, 'a file reference issued by the host');
export type FileRef = z.infer<typeof FileRef>;

export const FileEntry = z.object({
  name: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number(),
  modified: z.string(),
  ref: FileRef.optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FileRoot = z.enum(['home', 'workspace']);

/** A name for a file in the workspace's exports/ folder: no path separators, no leading dot. */
export const ExportName = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => !/[\\/\0]/.test(s), 'a file name without path separators')
  .refine((s) => s !== '.' && s !== '..' && !s.startsWith('.'), 'a file name that does not start with a dot');

/** Largest export accepted (decoded bytes); the base64 text is 4/3 of it. */
export const EXPORT_MAX_BYTES = 32 * 1024 * 1024;

/** A file in exports/: a plain name, or `folder/name` one level down (dataset exports write a folder). */
export const ExportPath = z
  .string()
  .min(1)
  .max(401)
  .refine((s) => s.split('/').length <= 2 && s.split('/').every((p) => ExportName.safeParse(p).success), 'a file name in exports/ (or folder/name), no other path separators, no leading dots');

export const ExportEntry = z.object({ name: z.string(), size: z.number(), modified: z.string() });
export type ExportEntry = z.infer<typeof ExportEntry>;
