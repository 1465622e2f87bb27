// The spread of one input's prediction over a seed group (the same configuration trained once per
// seed): how much the prediction depends on the seed, i.e. on what training did not pin down. Per
// point the sample std over the members, ||std|| / ||mean|| as one number, and each member's distance
// from the group's mean prediction (docs/diagnostics.md, the trust panel).

export interface SeedSpread {
  /** Per channel, per point: the std over the members (n - 1 in the denominator). */
  std: number[][];
  /** sqrt(sum of std^2) / sqrt(sum of mean^2) over every point and channel. */
  relative: number;
  /** Per member: ||prediction - mean|| / ||mean||. */
  fromMean: number[];
}

/** `preds[m][c][p]`: member m's prediction, channel c, point p (every member the same shape). */
export function seedSpread(preds: readonly (readonly ArrayLike<number>[])[]): SeedSpread {
  const M = preds.length;
  if (M === 0) throw new Error('seed spread: no predictions');
  const C = preds[0]!.length;
  for (const [m, p] of preds.entries()) {
    if (p.length !== C || p.some((ch, c) => ch.length !== preds[0]![c]!.length)) throw new Error(`seed spread: member ${m}'s prediction has another shape than member 0's`);
  }
  let ss = 0, mm = 0;
  const dev = new Array<number>(M).fill(0);
  const std = Array.from({ length: C }, (_, c) => {
    const P = preds[0]![c]!.length;
    const out = new Array<number>(P);
    for (let p = 0; p < P; p++) {
      let mean = 0;
      for (let m = 0; m < M; m++) mean += preds[m]![c]![p]! / M;
      let v = 0;
      for (let m = 0; m < M; m++) {
        const d = preds[m]![c]![p]! - mean;
        v += d * d;
        dev[m]! += d * d;
      }
      const s2 = M > 1 ? v / (M - 1) : 0;
      out[p] = Math.sqrt(s2);
      ss += s2;
      mm += mean * mean;
    }
    return out;
  });
  const norm = Math.sqrt(mm);
  const rel = (x: number) => (norm > 0 ? Math.sqrt(x) / norm : Math.sqrt(x));
  return { std, relative: rel(ss), fromMean: dev.map(rel) };
}
