// Polls until `pred` returns (or resolves to) something truthy; rejects naming what it waited for.
// An async predicate is awaited: its promise itself is not the answer.
type Maybe<T> = T | undefined | false | null;

export async function waitFor<T>(pred: () => Maybe<T> | Promise<Maybe<T>>, ms = 60_000, what = 'condition'): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
