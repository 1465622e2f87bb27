// What the contract re-exports: the wire's own records (beside it in main/api) and the domain
// schemas owned by train/, runs/, data/, model/, sweep/ and ops/, so the renderer imports main/api alone.
export * from './api-error';
export * from './files';
export * from './host-records';
export * from './jobs';
export * from './events';
export * from './api-train-config';
export * from '../ops/backend-report';
export * from '../data/data-spec';
export * from '../data/dataset-records';
export * from '../data/transfer-source';
export * from '../train/config';
export * from '../train/torch-report';
export * from '../train/torch-speed-record';
export * from '../train/evaluation-result';
export * from '../runs/playground-records';
export * from './playground-wire';
export * from '../runs/run-records';
export * from '../model/lino/light-map-records';
export * from '../model/estimate-result';
// Model kinds are declared once, in main/model/kinds.ts (light: zod only, no tfjs); the registry
// (main/model/registry.ts) registers exactly these. The renderer reads the kinds' field descriptors from here.
export { SweepDetail, SweepSummary, SweepAnalysis, SweepState } from '../sweep/sweep-types';
export type { SweepConfig, SweepConfigInput, SweepAxis, AxisValue } from '../sweep/sweep-config';
export { SWEEP_METHODS } from '../sweep/sweep-config';
export { MODEL_KINDS, MODEL_KIND_DECLARATIONS, ModelConfig, builderConfig, modelKindDeclaration } from '../model/kinds';
export type { ModelKind, ModelKindDeclaration, ModelFieldDescriptor, ModelNumberField } from '../model/kinds';
