// The shown run's curves: loss and relL2 per step (smoothed, raw faint behind), relL2 per epoch
// with the best epoch starred, gradient norm with the learning rate, throughput and memory; the
// x and y axis choices persist with the workspace's UI state.
import { useId, useMemo, useState } from 'react';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { emaSmooth, EMPTY_CURVES } from '../../logic/run-metrics';
import { Plot } from '../../plots/plot';
import { lineTrace, type Trace } from '../../plots/traces';
import { PLOT_COLORS } from '../../plots/theme';
import { gradNormLayout, memoryScale } from '../../plots/training-layouts';
import { usePersisted } from '../../stores/persisted-state';
import { epochX, stepX, validScale, validXMode, X_TITLES, type AxisScale, type XMode } from '../../logic/curve-axes';
import { Choice } from './choice';

const SCALES: [AxisScale, string][] = [['log', 'log'], ['linear', 'linear']];
const X_OPTIONS: [XMode, string][] = [['step', 'step'], ['epoch', 'epoch'], ['wall', 'wall time']];

export function Curves({ runId }: { runId: string }) {
  const curves = useTraining((s) => s.curves[runId]) ?? EMPTY_CURVES;
  const theme = useApp((s) => s.theme);
  const [smoothing, setSmoothing] = useState(0.6);
  // Axis choices survive a reload (workspace UI state), like TensorBoard's per-chart toggles.
  // Step records (loss, gradient norm, rate) and epoch records (relL2, throughput) each have their x.
  const [xMode, setXMode] = usePersisted<XMode>('training.stepX', 'step', validXMode);
  const [epochMode, setEpochMode] = usePersisted<XMode>('training.epochX', 'epoch', validXMode);
  const [xScale, setXScale] = usePersisted<AxisScale>('training.xScale', 'linear', validScale);
  const [lossY, setLossY] = usePersisted<AxisScale>('training.lossYScale', 'log', validScale);
  const [epochY, setEpochY] = usePersisted<AxisScale>('training.epochYScale', 'log', validScale);
  const sid = useId();
  const colors = PLOT_COLORS[theme].lines;

  const sx = useMemo(() => stepX(curves.steps, curves.epochs, xMode), [curves.steps, curves.epochs, xMode]);
  // Epoch x needs the steps only by step: otherwise each live step would redraw the per-epoch plots.
  const stepsForEpochX = epochMode === 'step' ? curves.steps : EMPTY_CURVES.steps;
  const ex = useMemo(() => epochX(stepsForEpochX, curves.epochs, epochMode).map((v) => v ?? NaN), [stepsForEpochX, curves.epochs, epochMode]);

  const lossData = useMemo((): Trace[] => {
    const loss = curves.steps.map((r) => r.loss);
    const rel = curves.steps.map((r) => r.relL2);
    return [
      { ...lineTrace({ x: sx, y: loss, name: 'train loss (raw)', opacity: 0.25, width: 1, color: colors[0] }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x: sx, y: emaSmooth(loss, smoothing), name: 'train loss', color: colors[0] }),
      { ...lineTrace({ x: sx, y: rel, name: 'train relL2 (raw)', opacity: 0.25, width: 1, color: colors[1] }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x: sx, y: emaSmooth(rel, smoothing), name: 'train relL2 (normalized)', color: colors[1] }),
    ];
  }, [curves.steps, sx, smoothing, colors]);

  const epochData = useMemo((): Trace[] => {
    const e = curves.epochs;
    const out: Trace[] = [
      { ...lineTrace({ x: ex, y: e.map((r) => r.train.relL2), name: 'train relL2 (normalized)', color: colors[1] }), mode: 'lines+markers' },
      { ...lineTrace({ x: ex, y: e.map((r) => r.val.relL2), name: 'val relL2 (normalized)', color: colors[2] }), mode: 'lines+markers' },
      { ...lineTrace({ x: ex, y: e.map((r) => r.val.relL2Decoded), name: 'val relL2 (decoded)', color: colors[3], dash: 'dash' }), mode: 'lines+markers' },
    ];
    const last = e[e.length - 1];
    if (last) {
      const i = e.findIndex((r) => r.epoch === last.bestEpoch);
      if (i >= 0) out.push({ type: 'scatter', mode: 'markers', x: [ex[i]], y: [e[i]!.val.relL2], name: `best (epoch ${e[i]!.epoch})`, marker: { symbol: 'star', size: 14, color: colors[4] } });
    }
    return out;
  }, [curves.epochs, ex, colors]);

  // Global gradient norm before clipping (metrics.jsonl 'gradNorm'), smoothed like the loss, with
  // the learning rate on a second axis: one plot, so a live step redraws no more plots than before.
  const gradData = useMemo((): Trace[] => {
    const g = curves.steps.map((r) => r.gradNorm);
    const c = colors[5] ?? colors[0];
    return [
      { ...lineTrace({ x: sx, y: g, name: 'gradient norm (raw)', opacity: 0.25, width: 1, color: c }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x: sx, y: emaSmooth(g, smoothing), name: 'gradient norm', color: c }),
      { ...lineTrace({ x: sx, y: curves.steps.map((r) => r.lr), name: 'learning rate', color: colors[0] }), yaxis: 'y2' },
    ];
  }, [curves.steps, sx, smoothing, colors]);

  // Throughput and memory per epoch (the epoch record's samplesPerSec, peakRssBytes, tfBytes);
  // memory in MiB or GiB by its size, on nice ticks (memoryScale).
  const memory = useMemo(() => memoryScale(curves.epochs.flatMap((r) => [r.peakRssBytes, r.tfBytes])), [curves.epochs]);
  const systemData = useMemo((): Trace[] => {
    const e = curves.epochs;
    const mem = (b: number) => b / memory.divisor;
    return [
      { type: 'scatter', mode: 'lines+markers', x: ex, y: e.map((r) => r.samplesPerSec), name: 'samples / s', line: { color: colors[0] } },
      { type: 'scatter', mode: 'lines+markers', x: ex, y: e.map((r) => mem(r.peakRssBytes)), name: `peak RSS (${memory.unit})`, yaxis: 'y2', line: { color: colors[1], dash: 'dot' } },
      { type: 'scatter', mode: 'lines+markers', x: ex, y: e.map((r) => mem(r.tfBytes)), name: `tensors (${memory.unit})`, yaxis: 'y2', line: { color: colors[2], dash: 'dash' } },
    ];
  }, [curves.epochs, ex, colors, memory]);

  const legend = { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 };
  const margin = { l: 60, r: 20, t: 50, b: 50 };
  const xaxis = useMemo(() => ({ title: X_TITLES[xMode], type: xScale }), [xMode, xScale]);
  const exaxis = useMemo(() => ({ title: X_TITLES[epochMode], type: xScale }), [epochMode, xScale]);
  const lossLayout = useMemo(() => ({ xaxis, yaxis: { title: 'Training objective / relL2', type: lossY }, legend, margin }), [xaxis, lossY]);
  const epochLayout = useMemo(() => ({ xaxis: { ...exaxis, dtick: epochMode === 'epoch' && xScale === 'linear' && curves.epochs.length < 10 ? 1 : undefined }, yaxis: { title: 'relL2', type: epochY }, legend, margin }), [exaxis, epochMode, xScale, epochY, curves.epochs.length]);
  const systemLayout = useMemo(() => ({ xaxis: exaxis, yaxis: { title: 'Samples / s', rangemode: 'tozero' }, yaxis2: memory.axis, legend, margin: { ...margin, r: 60 } }), [exaxis, memory]);
  const gradLayout = useMemo(() => gradNormLayout(xaxis, lossY, curves.steps.map((r) => r.lr)), [curves.steps, xaxis, lossY]);

  return (
    <>
      <div className="row wrap">
        <label htmlFor={sid}>Smoothing</label>
        <input id={sid} data-testid="smoothing" type="range" min={0} max={0.99} step={0.01} value={smoothing} onChange={(e) => setSmoothing(Number(e.target.value))} />
        <output htmlFor={sid}>{smoothing.toFixed(2)}</output>
        <span className="muted small" data-testid="curve-points">{curves.steps.length} steps, {curves.epochs.length} epochs recorded</span>
      </div>
      <div className="row wrap" role="group" aria-label="Curve axes">
        <Choice label="Per-step plots: x" value={xMode} options={X_OPTIONS} onChange={setXMode} testId="x-mode" />
        <Choice label="Per-epoch plots: x" value={epochMode} options={X_OPTIONS} onChange={setEpochMode} testId="epoch-x-mode" />
        <Choice label="x scale" value={xScale} options={[['linear', 'linear'], ['log', 'log']]} onChange={setXScale} testId="x-scale" />
        <Choice label="Loss y scale" value={lossY} options={SCALES} onChange={setLossY} testId="loss-y-scale" />
        <Choice label="relL2 y scale" value={epochY} options={SCALES} onChange={setEpochY} testId="epoch-y-scale" />
      </div>
      <div className="plot-grid">
        <Plot title="Training loss per step" data={lossData} layout={lossLayout} height={300} testId="loss-plot" />
        <Plot title="Relative L2 error per epoch" data={epochData} layout={epochLayout} height={300} testId="epoch-plot" />
        <Plot title="Gradient norm and learning rate per step" data={gradData} layout={gradLayout} height={280} testId="grad-plot" />
        <Plot title="Throughput and memory per epoch" data={systemData} layout={systemLayout} height={260} testId="system-plot" />
      </div>
    </>
  );
}

