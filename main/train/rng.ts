// Seeded pseudo-random numbers for shuffling, with a state that serialises to JSON so a
// resumed run draws exactly the numbers an uninterrupted one would have drawn.
// sfc32 (Chris Doty-Humphrey's small fast counter): 128 bits of state, good statistics.
import { splitmix32 } from '../data/generate/rng';

export interface RngState {
  kind: 'sfc32';
  s: [number, number, number, number];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | RngState) {
    if (typeof seed === 'object') {
      if (seed.kind !== 'sfc32' || !Array.isArray(seed.s) || seed.s.length !== 4) {
        throw new Error(`rng state: field 'kind'/'s' is ${JSON.stringify(seed)}, expected {kind:'sfc32', s:[4 uint32]}`);
      }
      [this.a, this.b, this.c, this.d] = seed.s.map((v) => v >>> 0) as [number, number, number, number];
      return;
    }
    // SplitMix32 expands the seed into the four words; then a few rounds decorrelate them.
    let x = seed >>> 0;
    const mix = () => {
      const [next, out] = splitmix32(x);
      x = next;
      return out;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n) without modulo bias. */
  int(n: number): number {
    if (!(n > 0 && n <= 4294967296)) throw new Error(`rng.int: n = ${n}, expected 1..2^32`);
    const limit = 4294967296 - (4294967296 % n);
    for (;;) {
      const u = this.nextUint32();
      if (u < limit) return u % n;
    }
  }

  /** A uniformly random permutation of 0..n-1 (Fisher-Yates). */
  permutation(n: number): number[] {
    const p = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = p[i]!;
      p[i] = p[j]!;
      p[j] = t;
    }
    return p;
  }

  getState(): RngState {
    return { kind: 'sfc32', s: [this.a, this.b, this.c, this.d] };
  }
}
