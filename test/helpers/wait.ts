// Polls until `pred` returns something truthy; rejects naming what it waited for.
export function waitFor<T>(pred: () => T | undefined | false | null, ms = 60_000, what = 'condition'): Promise<T> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      const v = pred();
      if (v) return resolve(v);
      if (Date.now() - t0 > ms) return reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}
