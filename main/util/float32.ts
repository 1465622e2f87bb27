// A value the workbench stores as float32 (datasets, model inputs, .npy exports) must be finite
// there: a float64 such as 1e308 becomes Infinity when it is written, and JSON carries Infinity as
// null (a dataset's statistics, a truth, a prediction all came back null). Checked where a value
// enters; the refusal names the field and this limit.

/** The largest finite float32 (2^128 - 2^104). */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** The index of the first value that is not finite in float32 (NaN, +-Infinity, |v| > FLOAT32_MAX), or -1. */
export function firstNonFloat32(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // written so that NaN fails too
    if (!(v <= FLOAT32_MAX && v >= -FLOAT32_MAX)) return i;
  }
  return -1;
}

/** "1e+308 is not finite in float32 (expected |v| <= 3.4028234e38)": the refusal's words. */
export function nonFloat32Message(v: number): string {
  return `${v} is not finite in float32 (expected a number with |v| <= 3.4028234e38)`;
}
