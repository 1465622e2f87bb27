// The five cases of issue 13 (all B4; median of 10 after 3 warm-up steps), shared by the Node side
// (entry.ts) and written to cases.json for the PyTorch side. --smoke: tiny sizes for a check here.
import type { LinoConfig } from '../../main/model/lino/config';

export interface GpuBenchCase { name: string; config: LinoConfig; grid: number[]; batch: number }

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
    ],
  };
}
