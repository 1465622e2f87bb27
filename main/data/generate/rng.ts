// Seeded pseudo-random numbers for the generators. JavaScript cannot reproduce numpy/torch
// streams, so every generator draws from this one documented source instead:
//   - seeds are mixed with SplitMix32 (Steele, Lea & Flood's SplitMix finalizer, 32-bit variant),
//   - the stream is xoshiro128** 1.1 (Blackman & Vigna), 4 x 32-bit state,
//   - uniforms in [0, 1) use the top 53 bits of two outputs,
//   - normals use the Box-Muller transform (both values of a pair are used).
// Each sample gets its own stream seeded from (seed, benchmark tag, sample index), so the bytes of
// a dataset do not depend on how its samples were split across worker threads.

/** One SplitMix32 step: the next state and its output (uint32). Also seeds train/rng.ts and splits' shuffles. */
export function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) | 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return [s, z >>> 0];
}

/** A 32-bit hash of a list of integers (used to derive per-sample seeds). */
export function mixSeed(...parts: number[]): number {
  let h = 0x243f6a88;
  for (const p of parts) {
    // Fold both 32-bit halves of safe integers so seeds above 2^32 still matter.
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    h = splitmix32(h ^ lo)[1];
    h = splitmix32(h ^ hi)[1];
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare = 0;
  private hasSpare = false;

  constructor(seed: number) {
    let s = seed >>> 0;
    let out: number;
    [s, out] = splitmix32(s); this.a = out | 0;
    [s, out] = splitmix32(s); this.b = out | 0;
    [s, out] = splitmix32(s); this.c = out | 0;
    [s, out] = splitmix32(s); this.d = out | 0;
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** xoshiro128**: next 32-bit unsigned output. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9);
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result >>> 0;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  uniform(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u = this.uniform();
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    this.hasSpare = true;
    return r * Math.cos(2 * Math.PI * v);
  }

  fillNormal(out: Float64Array): Float64Array {
    for (let i = 0; i < out.length; i++) out[i] = this.normal();
    return out;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Stream for one sample of one benchmark. */
export function sampleRng(seed: number, tag: string, index: number): Rng {
  let t = 0;
  for (let i = 0; i < tag.length; i++) t = Math.imul(t ^ tag.charCodeAt(i), 0x01000193) >>> 0;
  return new Rng(mixSeed(seed, t, index));
}
