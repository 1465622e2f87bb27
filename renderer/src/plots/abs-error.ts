/** |prediction − reference| per point (the error panels of Fields, Rollout and Ablation). */
export function absError(reference: ArrayLike<number>, prediction: ArrayLike<number>): Float64Array {
  if (reference.length !== prediction.length) throw new Error(`absError: ${prediction.length} predicted values for ${reference.length} reference values`);
  const out = new Float64Array(reference.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.abs(prediction[i]! - reference[i]!);
  return out;
}
