// Browser side of bench/plot-redraw.bench.ts: times Plotly.react redraws through the workbench's
// own trace builders and themed layouts. Exposes one function on window for the bench to call.
import Plotly from 'plotly.js-dist-min';
import { heatmapTrace, lineTrace } from '../../renderer/src/plots/traces';
import { themedLayout } from '../../renderer/src/plots/theme';

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

function field(n: number, k: number): Float32Array {
  const f = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) f[i] = Math.sin(((i % n) * (k + 1)) / 17) * Math.cos(Math.floor(i / n) / (9 + k));
  return f;
}

function curve(n: number, k: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = Math.exp(-i / (n / 4)) * (1 + 0.2 * Math.sin(i * 0.01 + k)) + 1e-3 * ((i * 7919 + k) % 101);
  return y;
}

/**
 * Median and p90 of `reps` redraws, ms: building the traces from the stored arrays (downsampling
 * included) + Plotly.react + the next paint. Making the synthetic arrays is not timed.
 */
async function time<T>(el: HTMLElement, reps: number, input: (k: number) => T, build: (x: T) => Record<string, unknown>[], layout: Record<string, unknown>) {
  await Plotly.react(el, build(input(0)), layout, { displayModeBar: false });
  await nextFrame();
  const ms: number[] = [];
  for (let k = 1; k <= reps; k++) {
    const x = input(k);
    const t0 = performance.now();
    await Plotly.react(el, build(x), layout, { displayModeBar: false });
    await nextFrame();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, p90: ms[Math.floor(ms.length * 0.9)]! };
}

async function run(reps: number) {
  const el = document.createElement('div');
  el.style.cssText = 'width:900px;height:600px';
  document.body.appendChild(el);
  const layout = themedLayout('light', { width: 900, height: 600, xaxis: { title: 'step' }, yaxis: { title: 'loss', type: 'log' } });
  const plain = themedLayout('light', { width: 900, height: 600 });
  const heat = await time(el, reps, (k) => field(256, k), (f) => [heatmapTrace({ values: f, nx: 256, ny: 256, scale: 'viridis' })], plain);
  const heat64 = await time(el, reps, (k) => field(64, k), (f) => [heatmapTrace({ values: f, nx: 64, ny: 64, scale: 'viridis' })], plain);
  const down = await time(el, reps, (k) => curve(100_000, k), (y) => [lineTrace({ y, buckets: 900 })], layout);
  const raw = await time(el, Math.max(3, Math.floor(reps / 4)), (k) => curve(100_000, k), (y) => [{ type: 'scatter', mode: 'lines', x: Array.from(y, (_, i) => i), y: Array.from(y) }], layout);
  Plotly.purge(el);
  el.remove();
  return { heat, heat64, down, raw };
}

(globalThis as any).plotBench = run;
document.getElementById('root')!.textContent = 'plot bench ready';
