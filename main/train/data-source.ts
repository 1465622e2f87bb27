// Resolves a run's data specification (TrainConfig.data) to the arrays the trainer consumes.
import type { DataSpec } from '../api/contract';
import { syntheticData, type TrainData } from './data';

export interface DataContext {
  /** Workspace folder (datasets/ lives there). */
  workspace?: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export async function loadTrainData(spec: DataSpec, _ctx: DataContext = {}): Promise<TrainData> {
  switch (spec.kind) {
    case 'synthetic':
      return syntheticData(spec);
  }
}
