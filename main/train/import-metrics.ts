// The one metrics.jsonl record of an imported run: the imported weights evaluated on the run's
// data (train and val splits, val with the gate statistics and block scalars the Gates view
// plots), the data re-encoded into the checkpoint's normalizer first, as evaluation does.
// Nothing here was measured during the PyTorch training: train.loss is this evaluation's
// MSE + relL2 on the train split, and throughput fields are zero.
import * as tf from '../ops/tf';
import type { TrainConfig } from './config';
import type { ReleaseCheckpoint } from '../runs/release-checkpoint';
import { loadStateDict } from '../runs/state-dict';
import { weightsAsFile } from '../runs/release-checkpoint';
import { autoregressiveSpec, type TrainData } from './data';
import { reencode } from './evaluate-run';
import { RELL2_DEFINITION, Trainer, type EpochRecord } from './trainer';

/** `data` in the data's own normalization; the record is in the checkpoint's. */
export async function importEpochRecord(cfg: TrainConfig, data: TrainData, ck: ReleaseCheckpoint, source: string): Promise<EpochRecord> {
  const t0 = performance.now();
  const own = data.manifest.normalization;
  const to = ck.normalizer;
  const enc = own.applied && to.applied;
  const coord = data.manifest.coordChannels;
  const inCk: TrainData = {
    ...data,
    manifest: { ...data.manifest, normalization: enc ? to : own },
    train: enc ? reencode(data.train, coord, own, to) : data.train,
    val: enc ? reencode(data.val, coord, own, to) : data.val,
  };
  const trainer = new Trainer(cfg, inCk, tf.getBackend());
  try {
    loadStateDict(trainer.model, weightsAsFile(ck.weights), source);
    const train = (await trainer.evaluateSplit(inCk.train)).metrics;
    const { metrics: val, blocks } = await trainer.evaluateSplit(inCk.val, true);
    const epoch = ck.epoch ?? 0;
    return {
      type: 'epoch',
      epoch,
      lr: ck.scheduler?.lr ?? ck.optimizer?.lr ?? cfg.optimizer.lr,
      train: { loss: train.mse + train.relL2, relL2: train.relL2 },
      relL2Definition: autoregressiveSpec(inCk) ? RELL2_DEFINITION.autoregressive : RELL2_DEFINITION.operator,
      val,
      blocks,
      best: true,
      bestEpoch: epoch,
      bestValRelL2: val.relL2,
      samplesPerSec: 0,
      epochSeconds: (performance.now() - t0) / 1000,
      etaSeconds: 0,
      peakRssBytes: process.memoryUsage().rss,
      tfBytes: tf.memory().numBytes,
      backend: tf.getBackend(),
    };
  } finally {
    trainer.dispose();
  }
}
