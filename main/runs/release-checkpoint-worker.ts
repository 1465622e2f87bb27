// Worker thread body for readReleaseCheckpoint with a deadline (readReleaseCheckpointWithDeadline in ./release-checkpoint.ts):
// decodes one checkpoint and posts it (Maps and typed arrays clone as they are) or the error back.
import { parentPort, workerData } from 'node:worker_threads';
import { readReleaseCheckpoint, type ReleaseCheckpoint } from './release-checkpoint';
import { errorMessage } from '../util/error-message';

export type CheckpointReply = { ok: true; checkpoint: ReleaseCheckpoint } | { ok: false; message: string };

const { path } = workerData as { path: string };
let reply: CheckpointReply;
try {
  reply = { ok: true, checkpoint: readReleaseCheckpoint(path) };
} catch (e) {
  reply = { ok: false, message: errorMessage(e) };
}
parentPort!.postMessage(reply);
