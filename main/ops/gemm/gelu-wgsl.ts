// GELU (exact erf form, the erf of main/ops/gelu.ts) and its derivative as WGSL functions, for
// the GEMM's prologue (GELU of an operand as it is loaded) and epilogue (times GELU'(z)).
import { WGSL_ERF } from '../gelu';

export const GELU_WGSL = `${WGSL_ERF}
fn linoGelu(v : f32) -> f32 { return 0.5 * v * (1.0 + linoErf(v * ${Math.SQRT1_2})); }
fn linoGeluGrad(v : f32) -> f32 { return 0.5 * (1.0 + linoErf(v * ${Math.SQRT1_2})) + v * ${1 / Math.sqrt(2 * Math.PI)} * exp(-0.5 * v * v); }`;
