// The job lanes, in the order the Queue card shows them (which kind runs in which: main/engine/job-lanes.ts).
export type LaneId = 'training' | 'evaluation' | 'analysis' | 'playground-solve' | 'data' | 'export' | 'system';

export const LANE_ORDER: readonly LaneId[] = ['training', 'evaluation', 'analysis', 'playground-solve', 'data', 'export', 'system'];

export const LANE_LABEL: Record<LaneId, string> = {
  training: 'Training',
  evaluation: 'Evaluation',
  analysis: 'Light maps and correlation',
  'playground-solve': 'Playground solver',
  data: 'Data',
  export: 'Export',
  system: 'Engine',
};
