// The calls the Playground's worker answers (playground-worker.ts), one table for the worker and for
// the engine thread's fallback where no worker was built (playground-lane.ts).
import { playgroundDrawCall, playgroundPredictCall } from './playground-call';
import { playgroundTrustCall } from './playground-trust-call';

export type PlaygroundLaneMethod = 'playground.predict' | 'playground.draw' | 'playground.trust';

export const LANE_CALLS: Record<PlaygroundLaneMethod, (p: never) => Promise<unknown>> = {
  'playground.predict': playgroundPredictCall,
  'playground.draw': playgroundDrawCall,
  'playground.trust': playgroundTrustCall,
};
