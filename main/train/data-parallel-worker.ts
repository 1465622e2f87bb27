// Worker thread of DataParallelTrainer: its own tfjs backend and model replica; per step it
// receives the current parameters and its share of the batch, returns its weighted gradients.
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../ops/backend';
import { createModel } from '../model/registry';
import type { NeuralOperator } from '../model/types';
import { mseGradients } from './grad-step';
import { shareGradients, type GradOptions } from './batch-grads';

export interface InitMsg { type: 'init'; kind: string; config: unknown; backend?: string }
export interface StepMsg {
  type: 'step';
  params?: Record<string, Float32Array>;
  x: Float32Array; xShape: number[]; y: Float32Array; yShape: number[];
  microBatch: number; scale: number;
}

/** Training runs (./parallel-grads.ts): the run's objective, micro-batching and rollout. */
export interface TrainInitMsg { type: 'train-init'; kind: string; config: unknown; backend?: string; grad: GradOptions }
export interface TrainStepMsg {
  type: 'train-step';
  params: Record<string, Float32Array>;
  x: Float32Array; xShape: number[]; y: Float32Array; yShape: number[];
  /** The whole batch's size (this share's terms are weighted by it). */
  batchSize: number;
}

let model: NeuralOperator | undefined;
let grad: GradOptions | undefined;

function assignParams(m: NeuralOperator, params: Record<string, Float32Array>): void {
  for (const [k, v] of m.variables) {
    const t = tf.tensor(params[k]!, v.shape, 'float32');
    v.assign(t);
    t.dispose();
  }
}

async function trainStep(msg: TrainStepMsg): Promise<void> {
  const m = model!;
  assignParams(m, msg.params);
  const n = msg.xShape[0]!;
  const xPer = msg.x.length / n, yPer = msg.y.length / n;
  const t0 = performance.now();
  const r = await shareGradients(m, n, msg.batchSize, (i, k) => ({
    x: tf.tensor(msg.x.subarray(i * xPer, (i + k) * xPer), [k, ...msg.xShape.slice(1)], 'float32'),
    y: tf.tensor(msg.y.subarray(i * yPer, (i + k) * yPer), [k, ...msg.yShape.slice(1)], 'float32'),
  }), grad!);
  const out: Record<string, Float32Array> = {};
  for (const [k, g] of r.grads) out[k] = (await g.data()) as Float32Array;
  tf.dispose([...r.grads.values()]);
  parentPort!.postMessage({ type: 'train-grads', loss: r.loss, relSum: r.relSum, grads: out, ms: performance.now() - t0 }, Object.values(out).map((a) => a.buffer as ArrayBuffer));
}

parentPort!.on('message', async (msg: InitMsg | StepMsg | TrainInitMsg | TrainStepMsg | { type: 'close' }) => {
  try {
    if (msg.type === 'train-init') {
      const report = await selectBackend(msg.backend);
      model = createModel(msg.kind, msg.config);
      grad = msg.grad;
      parentPort!.postMessage({ type: 'ready', backend: report.active });
    } else if (msg.type === 'train-step') {
      await trainStep(msg);
    } else if (msg.type === 'init') {
      const report = await selectBackend(msg.backend);
      model = createModel(msg.kind, msg.config);
      parentPort!.postMessage({ type: 'ready', backend: report.active });
    } else if (msg.type === 'step') {
      const m = model!;
      if (msg.params) {
        for (const [k, v] of m.variables) {
          const t = tf.tensor(msg.params[k]!, v.shape, 'float32');
          v.assign(t);
          t.dispose();
        }
      }
      const x = tf.tensor(msg.x, msg.xShape, 'float32');
      const y = tf.tensor(msg.y, msg.yShape, 'float32');
      const t0 = performance.now();
      const { loss, grads } = await mseGradients(m, x, y, msg.microBatch, msg.scale);
      const out: Record<string, Float32Array> = {};
      for (const [k, g] of grads) out[k] = (await g.data()) as Float32Array;
      tf.dispose([x, y, ...grads.values()]);
      parentPort!.postMessage({ type: 'grads', loss, grads: out, ms: performance.now() - t0 }, Object.values(out).map((a) => a.buffer as ArrayBuffer));
    } else if (msg.type === 'close') {
      model?.dispose();
      parentPort!.close();
    }
  } catch (e) {
    // training runs show this as the run's reason: the message, not the stack
    const err = e as Error;
    parentPort!.postMessage({ type: 'error', message: msg.type.startsWith('train-') ? err.message ?? String(e) : err.stack ?? String(e) });
  }
});
