// Data-parallel training (config.workers): the same Darcy 32^2 run (paper model, M=128, L=8,
// batch 4) trained through the engine with workers = 1 and workers = 2, on the engine's default
// backend. Prints each run's training samples/s (the epoch records' samplesPerSec, first epoch
// left out as warm-up) and their ratio, measured in this run. Results are the same maths either way.
//   npm run bench train-parallel
//   LINO_BENCH_LONG=1 npm run bench train-parallel   (4 epochs per run instead of 2)
import { availableParallelism } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkbenchService } from '../main/services/workbench-service';
import { forkLauncher } from '../main/services/engine-launcher';
import type { EngineInfo, EpochMetrics, WorkbenchEvent } from '../main/api/contract';

const EPOCHS = process.env.LINO_BENCH_LONG ? 4 : 2;

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lino-bench-dp-'));
  process.env.LINO_CONFIG_DIR = join(dir, 'config');
  const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: join(dir, 'ws') });
  const events: WorkbenchEvent[] = [];
  service.onEvent((e) => events.push(e));
  const runOnce = async (workers: number) => {
    const { runId } = (await service.call('train.start', {
      config: {
        name: `bench workers=${workers}`,
        data: { kind: 'generate', benchmark: 'darcy', preset: 'quick', samples: 20, generateResolution: 32, train: 16, val: 4 },
        epochs: EPOCHS,
        workers,
      },
    })) as { runId: string };
    const t0 = Date.now();
    for (;;) {
      const end = events.find((e) => e.type === 'run' && e.runId === runId && ['done', 'failed', 'stopped'].includes(e.state));
      if (end?.type === 'run') {
        if (end.state !== 'done') throw new Error(`the bench run (workers=${workers}) ended ${end.state}: ${end.reason}`);
        break;
      }
      if (Date.now() - t0 > 900_000) throw new Error('the bench run did not finish within 15 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const epochs = events.filter((e) => e.type === 'metrics' && e.runId === runId).map((e) => (e as { epoch?: EpochMetrics }).epoch).filter((e): e is EpochMetrics => !!e);
    const timed = epochs.slice(1);
    return timed.reduce((a, e) => a + e.samplesPerSec, 0) / timed.length;
  };
  try {
    const info = (await service.call('engine.info', {})) as EngineInfo;
    console.log(`engine backend: ${info.backend.active}; ${availableParallelism()} cores; ${EPOCHS} epochs of 16 samples per run`);
    const one = await runOnce(1);
    const two = await runOnce(2);
    console.log(`workers=1  ${one.toFixed(2)} samples/s`);
    console.log(`workers=2  ${two.toFixed(2)} samples/s  (x${(two / one).toFixed(2)} of workers=1)`);
  } finally {
    await service.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
