// Opens any supported data file: sniffs the format from its bytes (each format module's match(),
// ./sniff.ts) and lets that module open it.
import { formatNamed, sniffFile } from './sniff';
import type { DataFile } from './types';
import { DataError } from './errors';
import type { InspectReply } from './inspect-worker';
import { callWorker } from '../../util/workers';

export async function openDataFile(path: string): Promise<DataFile> {
  const s = sniffFile(path);
  return formatNamed(s.format).open(path, s);
}

/** The file browser's listing: format and variables (name, shape, dtype, size), nothing loaded. */
export async function inspectDataFile(path: string): Promise<{ path: string; format: string; variables: ReturnType<DataFile['variables']> }> {
  const f = await openDataFile(path);
  try {
    return { path, format: f.format, variables: f.variables() };
  } finally {
    f.close();
  }
}

/** How long a listing may take (ms); LINO_INSPECT_DEADLINE_MS overrides it (slow network mounts, tests). */
export const INSPECT_DEADLINE_MS = Number(process.env.LINO_INSPECT_DEADLINE_MS) > 0 ? Number(process.env.LINO_INSPECT_DEADLINE_MS) : 30_000;

export type Listing = Awaited<ReturnType<typeof inspectDataFile>>;

/**
 * A listing that cannot hang its caller: inspectDataFile in a worker, and a file that takes longer
 * than the deadline (a pathological HDF5 layout, a slow network mount) becomes a DataError naming
 * it while the calling thread keeps answering (the engine's ping). Without a worker entry (a bundle
 * that did not ship one) it lists in this thread, where the HDF5 walk's own time budget bounds it.
 */
export async function inspectWithDeadline(path: string, deadlineMs = INSPECT_DEADLINE_MS, signal?: AbortSignal): Promise<Listing> {
  const reply = callWorker<InspectReply>('inspect', { path }, {
    deadlineMs, signal,
    late: () => new DataError(path, '', `listing the file took longer than ${deadlineMs / 1000} s and was stopped`, 'a file that can be listed in time'),
    failed: (why) => new DataError(path, '', `listing failed: ${why}`),
  });
  if (!reply) return inspectDataFile(path);
  const r = await reply;
  if (r.ok) return r.listing;
  throw r.file !== undefined ? Object.assign(new DataError(r.file, r.field ?? '', ''), { message: r.message, expected: r.expected ?? '' }) : new Error(r.message);
}

export { DataError } from './errors';
export type { DataFile, FormatName, VariableInfo } from './types';
export { sniffFile, sniffBytes } from './sniff';
export { writeNpy } from './npy';
export { writeMat73 } from './mat73';
