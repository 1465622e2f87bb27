// Accuracy against cost (docs/diagnostics.md): which benchmark's comparison to run. `lino cost` and
// the cost.benchmark job call this one entry; each benchmark's drawing and solving is its own file.
import { darcyCost } from './darcy-cost';
import { burgersCost } from './burgers-cost';
import { navierStokesCost } from './navier-stokes-cost';
import type { CostBenchmark, CostOptions, CostReport } from './cost-timing';

export type { CostBenchmark, CostOptions, CostReport, CostRow } from './cost-timing';
export const COST_BENCHMARKS = ['darcy', 'burgers', 'navier-stokes'] as const satisfies readonly CostBenchmark[];

export function benchmarkCost(benchmark: CostBenchmark, o: CostOptions): Promise<CostReport> {
  switch (benchmark) {
    case 'darcy': return darcyCost(o);
    case 'burgers': return burgersCost(o);
    case 'navier-stokes': return navierStokesCost(o);
  }
}
