// Worker thread body for inspectDataFile with a deadline (inspectWithDeadline in ./index.ts): lists one file and
// posts the listing or the error back. The parent terminates the worker when the deadline passes.
import { parentPort, workerData } from 'node:worker_threads';
import { inspectDataFile } from './index';
import { DataError } from './errors';
import { errorMessage } from '../../util/error-message';

export type InspectReply =
  | { ok: true; listing: Awaited<ReturnType<typeof inspectDataFile>> }
  | { ok: false; message: string; file?: string; field?: string; expected?: string };

async function main(): Promise<void> {
  const { path } = workerData as { path: string };
  let reply: InspectReply;
  try {
    reply = { ok: true, listing: await inspectDataFile(path) };
  } catch (e) {
    reply = e instanceof DataError ? { ok: false, message: e.message, file: e.file, field: e.field, expected: e.expected } : { ok: false, message: errorMessage(e) };
  }
  parentPort!.postMessage(reply);
}

void main();
