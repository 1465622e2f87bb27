// Deterministic, backend-independent initial values: PyTorch's defaults for affine maps and the
// depthwise kernel, uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), from a seeded generator.

/** mulberry32: small, fast, reproducible across platforms. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function uniformFanIn(rand: () => number, size: number, fanIn: number): Float32Array {
  const bound = 1 / Math.sqrt(fanIn);
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) out[i] = (2 * rand() - 1) * bound;
  return out;
}
