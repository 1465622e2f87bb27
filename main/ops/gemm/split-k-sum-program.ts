// The second pass of a split-K GEMM: out[i] = sum over s of P[s, i], P the [S, R, N] partial
// products. One thread per output element walks the S slices (S <= 256 by the GEMM's plan).
// A class so tfjs's timers name it; sizes come from the input shape uniform (one pipeline).
export class LinoSplitKSum {
  variableNames = ['P'];
  outputShape: number[];
  shaderKey = 'lino_splitk_sum';
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number] = [64, 1, 1];
  size = true;

  constructor(slices: number, rows: number, cols: number) {
    this.outputShape = [rows, cols];
    this.dispatchLayout = { x: [0, 1] };
    this.dispatch = [Math.ceil((rows * cols) / 64), 1, 1];
    if (slices < 1) throw new Error(`LinoSplitKSum: slices must be >= 1, got ${slices}`);
  }

  getUserCode(): string {
    return `fn main(index : i32) {
  if (index >= uniforms.size) { return; }
  let S = uniforms.pShape.x;
  var s = 0.0;
  for (var k = 0; k < S; k = k + 1) { s = s + P[k * uniforms.size + index]; }
  result[index] = s;
}`;
  }
}
