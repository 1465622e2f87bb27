// Depthwise 3 (1D) / 3x3 (2D) convolution, stride 1, zero padding 1, no bias, channels-last,
// with the kernel in PyTorch's layout [C, 1, 3] / [C, 1, 3, 3] (cross-correlation, as torch).
// The wasm backend has no DepthwiseConv2dNativeBackprop{Input,Filter} kernels, so the gradient
// is custom: the input gradient is the forward conv with the flipped kernel, the kernel gradient
// a correlation of the input with the output gradient. Both use only kernels every backend has.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused, runReduction } from './kernel-registry';
import { registerWasmDepthwiseFilterGrad } from './tfjs-internals/wasm-depthwise-filter-grad';

const FILTER_GRAD = 'LinoDepthwiseFilterGrad';
export class LinoDepthwiseFilterGradProgram extends FusedProgram {}

// dF[i, j, c] = sum over b, h, w of x[b, h+i-ph, w+j-pw, c] dy[b, h, w, c] (zero outside): on
// webgpu a parallel reduction over the B*H*W points (tfjs's depthwise conv with dy as an H x W
// filter has each thread walk the whole grid); cpu: this JS loop; wasm: WebAssembly SIMD of our own
// (tfjs-internals/wasm-depthwise-filter-grad.ts); otherwise the composed correlation.
registerFusedKernel(FILTER_GRAD, ['x', 'dy'], ([x, dy], [shape], { kh, kw }) => {
  const [B, H, W, C] = shape as [number, number, number, number];
  const ph = (kh! - 1) / 2, pw = (kw! - 1) / 2;
  const df = new Float64Array(kh! * kw! * C);
  for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) {
    const o = ((b * H + h) * W + w) * C;
    for (let i = 0; i < kh!; i++) {
      const xh = h + i - ph;
      if (xh < 0 || xh >= H) continue;
      for (let j = 0; j < kw!; j++) {
        const xw = w + j - pw;
        if (xw < 0 || xw >= W) continue;
        const xo = ((b * H + xh) * W + xw) * C, fo = (i * kw! + j) * C;
        for (let c = 0; c < C; c++) df[fo + c] += x![xo + c]! * dy![o + c]!;
      }
    }
  }
  return [{ shape: [kh!, kw!, C, 1], values: Float32Array.from(df) }];
}, ([x, dy], run, { kh, kw }) => {
  const [B, H, W, C] = x!.shape as [number, number, number, number];
  return [runReduction(run, LinoDepthwiseFilterGradProgram, {
    variableNames: ['X', 'DY'], outputShape: [kh!, kw!, C, 1], outputs: kh! * kw! * C, length: B * H * W, layout: 'columns', termReads: 2,
    sizes: { H, W, C, kw: kw!, ph: (kh! - 1) / 2, pw: (kw! - 1) / 2 },
    setup: `let c = o % uniforms.C; let ij = o / uniforms.C; let di = ij / uniforms.kw - uniforms.ph; let dj = ij % uniforms.kw - uniforms.pw;`,
    accumulate: `let w = r % uniforms.W; let bh = r / uniforms.W; let h = bh % uniforms.H;
      let xh = h + di; let xw = w + dj;
      if (xh >= 0 && xh < uniforms.H && xw >= 0 && xw < uniforms.W) { acc += X[((bh + di) * uniforms.W + xw) * uniforms.C + c] * DY[r * uniforms.C + c]; }`,
  }, [x!, dy!])];
}, { wasm: false });

registerWasmDepthwiseFilterGrad(FILTER_GRAD);

/** dF of the depthwise conv, [kh, kw, C, 1], from x and dy [B, H, W, C]: the composed correlation, or the fused kernel. */
function filterGrad(xs: tf.Tensor4D, d: tf.Tensor4D, kh: number, kw: number): tf.Tensor {
  if (hasFusedKernel(FILTER_GRAD)) return runFused(FILTER_GRAD, { x: xs, dy: d }, { kh, kw })[0]!;
  // one 'valid' depthwise correlation of the padded input with dy as the filter, batch folded
  // into channels (4x faster on wasm than 9 shifted slices, measured)
  const [B, H, W, C] = xs.shape;
  const ph = (kh - 1) / 2;
  const pw = (kw - 1) / 2;
  const xp = tf.pad(xs, [[0, 0], [ph, ph], [pw, pw], [0, 0]]);
  const xin = tf.reshape(tf.transpose(xp, [1, 2, 0, 3]), [1, H + 2 * ph, W + 2 * pw, B * C]) as tf.Tensor4D;
  const filt = tf.reshape(tf.transpose(d, [1, 2, 0, 3]), [H, W, B * C, 1]) as tf.Tensor4D;
  const corr = tf.depthwiseConv2d(xin, filt, 1, 'valid'); // [1, kh, kw, B*C]
  return tf.reshape(tf.sum(tf.reshape(corr, [kh, kw, B, C]), 2), [kh, kw, C, 1]);
}

// x4: [B, H, W, C], f: [kh, kw, C, 1] (tf layout) -> [B, H, W, C]
const dwConv = customGradOp((x4: tf.Tensor4D, f: tf.Tensor4D, save: tf.GradSaveFunc) => {
  save([x4, f]);
  return {
    value: tf.depthwiseConv2d(x4, f, 1, 'same'),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, fs] = saved as [tf.Tensor4D, tf.Tensor4D];
      const d = dy as tf.Tensor4D;
      const [kh, kw] = [fs.shape[0], fs.shape[1]];
      const dx = tf.depthwiseConv2d(d, tf.reverse(fs, [0, 1]), 1, 'same');
      const df = filterGrad(xs, d, kh, kw);
      return [dx, df];
    },
  };
});

/**
 * x: [B, Q, C] (1D) or [B, H, W, C] (2D); kernel: [C, 1, 3] or [C, 1, 3, 3] (PyTorch layout).
 */
export function depthwiseConv(x: tf.Tensor, kernel: tf.Tensor): tf.Tensor {
  const C = x.shape[x.rank - 1];
  if (kernel.shape[0] !== C || kernel.shape[1] !== 1) {
    throw new Error(`depthwiseConv: kernel [${kernel.shape.join(', ')}] does not fit ${C} channels`);
  }
  if (x.rank === 3 && kernel.rank === 3) {
    const [B, Q] = x.shape;
    // [C,1,k] -> [1,k,C,1]
    const f = tf.reshape(tf.transpose(kernel, [2, 0, 1]), [1, kernel.shape[2]!, C, 1]) as tf.Tensor4D;
    const y = dwConv(tf.reshape(x, [B, 1, Q, C]) as tf.Tensor4D, f);
    return tf.reshape(y, [B, Q, C]);
  }
  if (x.rank === 4 && kernel.rank === 4) {
    // [C,1,kh,kw] -> [kh,kw,C,1]
    const f = tf.transpose(kernel, [2, 3, 0, 1]) as tf.Tensor4D;
    return dwConv(x as tf.Tensor4D, f);
  }
  throw new Error(`depthwiseConv: input rank ${x.rank} with kernel rank ${kernel.rank} (expected 3/3 or 4/4)`);
}
