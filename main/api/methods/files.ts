// The contract's calls for the in-app file browser and the workspace's exports/ folder.
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, type MethodSpec } from '../method-spec';
import { EXPORT_MAX_BYTES, ExportEntry, ExportName, ExportPath, FileEntry, FileRef, FileRoot } from '../files';

export const filesMethods = {
  /** Files in the workspace's exports/ folder (and one level of sub-folders), newest first. */
  'exports.list': { route: 'host', params: empty, result: z.array(ExportEntry) },
  /** One export's bytes (base64), for a browser download. */
  'exports.read': { route: 'host', params: z.object({ name: ExportPath }).strict(), result: z.object({ name: z.string(), mime: z.string(), size: z.number(), data: z.string() }) },
  /** Electron: copy an export to where the user chooses in a native save dialog (null: cancelled). Browser mode answers null; the renderer downloads instead. */
  'exports.saveAs': { route: 'host', params: z.object({ name: ExportPath }).strict(), result: z.object({ path: z.string() }).nullable() },
  /** Browser mode's in-app file browser: list a folder under one of the allowed roots. */
  'files.list': {
    route: 'host',
    params: z.object({ root: FileRoot, rel: z.string().max(4096).default('') }).strict(),
    result: z.object({ root: FileRoot, rel: z.string(), parent: z.string().nullable(), entries: z.array(FileEntry) }),
  },
  /** Electron: native open dialog. Browser mode answers null (the renderer uses files.list). */
  'files.pickOpen': {
    route: 'host',
    params: z.object({ directory: z.boolean().default(false), title: z.string().max(200).optional() }).strict(),
    result: z.object({ ref: FileRef, name: z.string() }).nullable(),
  },
  /** Save an export (figure or table) into the workspace's exports/ folder; answers the name it got. */
  'exports.save': {
    route: 'host',
    params: z
      .object({
        name: ExportName,
        mime: z.string().max(100).regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'a MIME type such as image/svg+xml'),
        data: z.string().max(Math.ceil(EXPORT_MAX_BYTES / 3) * 4, `at most ${EXPORT_MAX_BYTES / 1024 / 1024} MiB`).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 data'),
      })
      .strict(),
    result: z.object({ name: z.string(), size: z.number() }),
  },
} as const satisfies Record<string, MethodSpec>;
