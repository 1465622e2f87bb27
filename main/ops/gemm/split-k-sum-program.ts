// The second pass of a split-K GEMM: out[b, i] = sum over s of P[b * S + s, i], P the
// [batch * S, R, N] partial products. One thread per output element walks the S slices (S <= 256 by the GEMM's plan).
// A class so tfjs's timers name it; sizes come from the input shape uniform (one pipeline).
export class LinoSplitKSum {
  variableNames = ['P'];
  outputShape: number[];
  shaderKey = 'lino_splitk_sum';
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number] = [64, 1, 1];
  size = true;

  uniforms = 'slices : i32,';

  constructor(batch: number, rows: number, cols: number) {
    this.outputShape = batch === 1 ? [rows, cols] : [batch, rows, cols];
    this.dispatchLayout = { x: this.outputShape.map((_, i) => i) };
    this.dispatch = [Math.ceil((batch * rows * cols) / 64), 1, 1];
  }

  getUserCode(): string {
    return `fn main(index : i32) {
  if (index >= uniforms.size) { return; }
  let S = uniforms.slices;
  let rn = uniforms.pShape.y * uniforms.pShape.z;
  let base = (index / rn) * S * rn + index % rn;
  var s = 0.0;
  for (var k = 0; k < S; k = k + 1) { s = s + P[base + k * rn]; }
  result[index] = s;
}`;
  }
}
