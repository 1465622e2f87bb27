// The contract's calls for the Playground: draw, solve, predict, dataset samples, keep what was found (wire schemas: ../playground-wire.ts; records: main/runs/playground-records.ts).
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { type MethodSpec } from '../method-spec';
import { JobSummary } from '../jobs';
import { PlaygroundFields, PlaygroundSample } from '../../runs/playground-records';
import { PlaygroundAnswer, PlaygroundTrust, PlaygroundTrustParams, PlaygroundAppendable, PlaygroundAppendableParams, PlaygroundDrawParams, PlaygroundExportParams, PlaygroundExported, PlaygroundPredictParams, PlaygroundSampleParams, PlaygroundSaveParams, PlaygroundSaved, PlaygroundSolveParams } from '../playground-wire';

export const playgroundMethods = {
  'playground.predict': { route: 'engine+workspace', params: PlaygroundPredictParams, result: PlaygroundAnswer },
  /** How far to trust the prediction of one input: the spread over the run's seed group, the distance to the training inputs. */
  'playground.trust': { route: 'engine+workspace', params: PlaygroundTrustParams, result: PlaygroundTrust },
  'playground.solve': { route: 'engine+workspace', params: PlaygroundSolveParams, result: JobSummary },
  'playground.draw': { route: 'engine+workspace', params: PlaygroundDrawParams, result: PlaygroundFields },
  'playground.save': { route: 'engine+workspace', params: PlaygroundSaveParams, result: PlaygroundSaved },
  /** The datasets a Playground sample of this run can be appended to (another benchmark, grid or layout, a prepared cache or a dataset a run trained on cannot). */
  'playground.appendable': { route: 'engine+workspace', params: PlaygroundAppendableParams, result: PlaygroundAppendable },
  'playground.sample': { route: 'engine+workspace', params: PlaygroundSampleParams, result: PlaygroundSample },
  'playground.export': { route: 'engine+workspace', params: PlaygroundExportParams, result: PlaygroundExported },
} as const satisfies Record<string, MethodSpec>;
