// The Playground's predict and draw in a worker thread of the engine process:
// a 512 x 512 forward pass or random field took 0.4-1.1 s of the engine thread, and every call
// waited behind it (engine.ping among them). This worker has its own TensorFlow.js instance and
// backend and keeps the loaded run (playground-call.ts caches it per checkpoint version), so painting
// still costs one forward pass; the client keeps its latest-input-wins loop. Talks to
// main/engine/playground-lane.ts with the messages below.
import { parentPort } from 'node:worker_threads';
import { setPriority } from 'node:os';
import { ApiError } from '../api/api-error';
import { errorMessage } from '../util/error-message';
import { LANE_CALLS, type PlaygroundLaneMethod } from './playground-lane-calls';

export type { PlaygroundLaneMethod };
/** `paramsJson`: the params as the host sent them (text), parsed here rather than in the engine thread. */
export type ToPlaygroundWorker = { n: number; method: PlaygroundLaneMethod } & ({ params: unknown } | { paramsJson: string });
export type FromPlaygroundWorker =
  | { n: number; resultJson: string }
  | { n: number; error: string; code?: string; details?: unknown };

const port = parentPort!;
// Linux: the nice value is per thread; the engine thread, which answers every call, goes first
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    /* not permitted: the same priority as the engine */
  }
}

port.on('message', async (m: ToPlaygroundWorker) => {
  try {
    const params = ('paramsJson' in m ? JSON.parse(m.paramsJson) : m.params) as never;
    const r = await LANE_CALLS[m.method](params);
    // as JSON text: it crosses the engine thread to the host as one string (json-text.ts); a 512^2
    // prediction cloned into the engine's heap and stringified there held it for ~150 ms
    port.postMessage({ n: m.n, resultJson: JSON.stringify(r) } satisfies FromPlaygroundWorker);
  } catch (e) {
    port.postMessage({ n: m.n, error: errorMessage(e), ...(e instanceof ApiError ? { code: e.code, details: e.details } : {}) } satisfies FromPlaygroundWorker);
  }
});
port.postMessage({ ready: true });
