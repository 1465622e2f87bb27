// Model registry: name -> factory. LiNO now; FNO and DeepONet register here later.
import type { NeuralOperator } from './types';
import { createLino } from './lino/operator';

export type ModelFactory = (config: unknown) => NeuralOperator;

const factories = new Map<string, ModelFactory>();

export function registerModel(name: string, factory: ModelFactory): void {
  if (factories.has(name)) throw new Error(`model '${name}' is already registered`);
  factories.set(name, factory);
}

export function listModels(): string[] {
  return [...factories.keys()].sort();
}

export function createModel(name: string, config: unknown): NeuralOperator {
  const f = factories.get(name);
  if (!f) throw new Error(`unknown model '${name}' (registered: ${listModels().join(', ')})`);
  return f(config);
}

registerModel('lino', createLino);
