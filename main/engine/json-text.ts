// A job's result as JSON text, from a job worker to the host without becoming objects in the engine
// thread. A Fields evaluation's result (200 KB of JSON: the fields' number arrays) was structured-
// cloned into the engine's heap and stringified again for the host: a CPU profile of the engine
// beside a training run showed 100 ms of garbage collection and 2 x 24 ms of JSON there (the lanes
// test, test/integration/train/lanes.test.ts). As text it is one string copied through.
import type { FromEngine } from '../api/engine-protocol';
import type { JobSummary } from '../api/contract';

export class JsonText {
  constructor(readonly json: string) {}
}

/** The job's event for the host: a result kept as JSON text goes spliced into the event's JSON. */
export function jobEventMessage(job: JobSummary): FromEngine {
  const { result, ...rest } = job;
  if (!(result instanceof JsonText)) return { type: 'event', event: { type: 'job', job } };
  return { type: 'event-json', json: `{"type":"job","job":${JSON.stringify(rest).slice(0, -1)},"result":${result.json}}}` };
}

/** A job summary as a call answers it (jobs.list): a result kept as text is parsed back. */
export function withParsedResult(job: JobSummary): JobSummary {
  return job.result instanceof JsonText ? { ...job, result: JSON.parse(job.result.json) as unknown } : job;
}
