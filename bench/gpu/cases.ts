// The five LiNO cases, then FNO and DeepONet (all B4; median of 10 after 3 warm-up steps), shared by the Node side
// (entry.ts) and written to cases.json for the PyTorch side. --smoke: tiny sizes for a check here.
import type { LinoConfig } from '../../main/model/lino/config';

/** kind: a registry model kind (LiNO when omitted), config its registry config. */
export interface GpuBenchCase { name: string; kind?: string; config: LinoConfig | BaselineConfig; grid: number[]; batch: number }
type BaselineConfig = { dims: 1 | 2; inChannels: number; outChannels: number } & Record<string, unknown>;

const all = ['reflection', 'refraction', 'scattering'] as LinoConfig['components'];
const c2 = (width: number, depth: number, inChannels = 3): LinoConfig => ({ dims: 2, inChannels, outChannels: 1, width, depth, scattering: 'efficient', components: all });

/** gemmRows: B*N of the GEMM section's products (Darcy 85² B4 = 28,900). */
export function gpuBenchCases(smoke: boolean): { warmup: number; steps: number; gemmRows: number; cases: GpuBenchCase[] } {
  if (smoke) {
    return {
      gemmRows: 256,
      warmup: 1,
      steps: 2,
      cases: [
        { name: 'smoke: 2D 8², M8 L1, efficient', config: c2(8, 1), grid: [8, 8], batch: 2 },
        { name: 'smoke: Burgers 16, M8 L1, full', config: { dims: 1, inChannels: 2, outChannels: 1, width: 8, depth: 1, scattering: 'full', components: all }, grid: [16], batch: 2 },
        { name: 'smoke: FNO 8², width 4, modes 2', kind: 'fno', config: { dims: 2, inChannels: 3, outChannels: 1, width: 4, modes: 2, layers: 1, projection: 8 }, grid: [8, 8], batch: 2 },
        { name: 'smoke: DeepONet 16, 2x8, p 8', kind: 'deeponet', config: { dims: 1, inChannels: 2, outChannels: 1, grid: [16], width: 8, layers: 2, basis: 8 }, grid: [16], batch: 2 },
      ],
    };
  }
  return {
    gemmRows: 4 * 85 * 85,
    warmup: 3,
    steps: 10,
    cases: [
      { name: 'Darcy 32², M32 L4, efficient', config: c2(32, 4), grid: [32, 32], batch: 4 },
      { name: 'Darcy 64², M64 L4, efficient', config: c2(64, 4), grid: [64, 64], batch: 4 },
      { name: 'Burgers 256, M32 L4, full', config: { dims: 1, inChannels: 2, outChannels: 1, width: 32, depth: 4, scattering: 'full', components: all }, grid: [256], batch: 4 },
      { name: 'Darcy 85², M128 L8, efficient', config: c2(128, 8), grid: [85, 85], batch: 4 },
      { name: '64², 12 input channels, M128 L8, efficient', config: c2(128, 8, 12), grid: [64, 64], batch: 4 },
      // the baselines LiNO is compared against, at the paper's sizes
      { name: 'FNO Darcy 85², width 32, modes 12', kind: 'fno', config: { dims: 2, inChannels: 3, outChannels: 1, width: 32, modes: 12 }, grid: [85, 85], batch: 4 },
      { name: 'DeepONet Burgers 256, 8x128, p 128', kind: 'deeponet', config: { dims: 1, inChannels: 2, outChannels: 1, grid: [256], width: 128, layers: 8, basis: 128 }, grid: [256], batch: 4 },
    ],
  };
}
