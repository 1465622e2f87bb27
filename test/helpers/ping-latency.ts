// engine.ping latency measured open loop, for the tests that assert nothing waits behind other work
// (test/integration/train/lanes.test.ts, playground-lane.test.ts): a ping every 10 ms whether or not
// the last one was answered, so a stall delays every ping sent during it (a loop that waits for each
// answer sends one ping per stall and its p99 can miss a 250 ms stall: coordinated omission).

/** The 99th percentile of a list of milliseconds (0 for none). */
export function p99(ms: number[]): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? 0;
}

export interface Pinger {
  /** Starts a new window: the pings answered from now on. */
  restart(): void;
  /** The current window's latencies so far (the array keeps filling until the next restart). */
  window(): number[];
  /** A fresh window of `ms` milliseconds, answered. */
  pingFor(ms: number): Promise<number[]>;
  /** Stops pinging and waits for the pings in flight. */
  stop(): Promise<void>;
}

export function openLoopPinger(ping: (t: number) => Promise<unknown>): Pinger {
  let pings: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const t = performance.now();
    const into = pings;
    const p: Promise<void> = ping(t).then(() => {
      into.push(performance.now() - t);
      inFlight.delete(p);
    });
    inFlight.add(p);
  }, 10);
  return {
    restart: () => { pings = []; },
    window: () => pings,
    pingFor: async (ms) => {
      pings = [];
      await new Promise((r) => setTimeout(r, ms));
      return pings;
    },
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}
