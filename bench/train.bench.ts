// Responsiveness while training: a Darcy 32^2 run (paper model, M=128, L=8, batch 4) trains in the
// engine process; meanwhile the host answers engine.ping (a round trip into the engine) and a
// host-level call (runs.list, read from the workspace by the host) every 50 ms. Prints p50/p99/max
// latency over the window, as ratios against the same calls with the engine idle, measured first.
//   npm run bench train            (20 s window)
//   LINO_BENCH_LONG=1 npm run bench train   (60 s, the figure)
//   LINO_TRAIN_IN_THREAD=1 ...     (the training loop on the engine's main thread, for comparison)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkbenchService } from '../main/services/workbench-service';
import { forkLauncher } from '../main/services/engine-launcher';
import type { EngineInfo, WorkbenchEvent } from '../main/api/contract';

const WINDOW_S = process.env.LINO_BENCH_LONG ? 60 : 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;

async function sample(service: WorkbenchService, seconds: number) {
  const ping: number[] = [];
  const host: number[] = [];
  const until = performance.now() + seconds * 1000;
  let i = 0;
  while (performance.now() < until) {
    const t0 = performance.now();
    if (i++ % 2 === 0) {
      await service.call('engine.ping', { t: Date.now() });
      ping.push(performance.now() - t0);
    } else {
      await service.call('runs.list', {});
      host.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ping, host };
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lino-bench-train-'));
  process.env.LINO_CONFIG_DIR = join(dir, 'config');
  const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: join(dir, 'ws') });
  const events: WorkbenchEvent[] = [];
  service.onEvent((e) => events.push(e));
  try {
    const info = (await service.call('engine.info', {})) as EngineInfo;
    console.log(`engine backend: ${info.backend.active}; training loop: ${process.env.LINO_TRAIN_IN_THREAD === '1' ? 'engine main thread' : 'worker thread'}`);
    const idle = await sample(service, Math.min(5, WINDOW_S / 4));
    console.log(`idle engine      engine.ping ${fmt(idle.ping)}`);
    console.log(`                 runs.list   ${fmt(idle.host)}`);
    const { runId } = (await service.call('train.start', {
      config: {
        name: 'bench darcy 32',
        data: { kind: 'generate', benchmark: 'darcy', preset: 'quick', samples: 24, generateResolution: 32, train: 20, val: 4 },
        epochs: 1000,
      },
    })) as { runId: string };
    const t0 = Date.now();
    while (!events.some((e) => e.type === 'metrics' && e.runId === runId)) {
      const failed = events.find((e) => e.type === 'run' && e.runId === runId && e.state === 'failed');
      if (failed) throw new Error(`the bench run failed: ${(failed as { reason?: string }).reason}`);
      if (Date.now() - t0 > 600_000) throw new Error('the bench run did not start training within 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const stepsBefore = events.filter((e) => e.type === 'metrics' && e.runId === runId).flatMap((e) => (e as { steps: { stepMs: number }[] }).steps).length;
    const busy = await sample(service, WINDOW_S);
    const steps = events.filter((e) => e.type === 'metrics' && e.runId === runId).flatMap((e) => (e as { steps: { stepMs: number }[] }).steps);
    const inWindow = steps.slice(stepsBefore);
    console.log(`while training   engine.ping ${fmt(busy.ping)}  (p99 x${(pct(busy.ping, 99) / pct(idle.ping, 99)).toFixed(2)} of idle)`);
    console.log(`(${WINDOW_S} s)          runs.list   ${fmt(busy.host)}  (p99 x${(pct(busy.host, 99) / pct(idle.host, 99)).toFixed(2)} of idle)`);
    console.log(`training during the window: ${inWindow.length} steps, median step ${pct(inWindow.map((s) => s.stepMs), 50).toFixed(0)} ms`);
    console.log(`target: p99 < 50 ms -> engine.ping ${pct(busy.ping, 99) < 50 ? 'met' : 'NOT met'}, host call ${pct(busy.host, 99) < 50 ? 'met' : 'NOT met'}`);
    await service.call('train.stop', { id: runId });
  } finally {
    await service.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
