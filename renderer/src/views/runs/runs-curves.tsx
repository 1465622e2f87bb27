// The Runs view's overlay of the selected runs' validation curves (x by epoch, step or wall time,
// linear/log y, both persisted) and the export of their curves as one long-format CSV.
import { useRelL2Headline } from '../../queries/rell2-headline';
import { relL2Title } from '../../logic/rell2-headline';
import { useMemo, useState } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { meanStdByEpoch } from '../../logic/run-metrics';
import { groupLabel } from '../../logic/ablation-plan';
import { usePersisted } from '../../stores/persisted-state';
import { epochX, validScale, validXMode, X_TITLES, type AxisScale, type XMode } from '../../logic/curve-axes';
import { CURVE_COLUMNS, curveRows } from '../../logic/curves-csv';
import { Plot } from '../../plots/plot';
import { PLOT_COLORS } from '../../plots/theme';
import type { Trace } from '../../plots/traces';
import { toCsv } from '../../export/table';
import { exportFileName, utf8Bytes } from '../../export/bytes';
import { saveExport } from '../../export/save';
import { SaveCopyButton } from '../../export/save-copy-button';
import { errorText } from '../../api/error-text';

function hexToRgba(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

/** Run ids behind the overlay keys ('run:<id>', 'group:<name>'), each once, in selection order. */
export function selectedRunIds(selected: Iterable<string>, runs: RunSummary[]): string[] {
  const out: string[] = [];
  for (const key of selected) {
    const ids = key.startsWith('run:') ? [key.slice(4)] : runs.filter((r) => r.group === key.slice(6)).map((r) => r.id);
    for (const id of ids) if (!out.includes(id) && runs.some((r) => r.id === id)) out.push(id);
  }
  return out;
}

/** `shown`: the runs the Runs view's filter leaves (a group's curve is the mean over those of its runs). */
export function RunsCurves({ selected, shown }: { selected: Set<string>; shown?: RunSummary[] }) {
  const api = useApp((s) => s.api);
  const host = useApp((s) => s.host);
  const theme = useApp((s) => s.theme);
  const refreshWorkspace = useApp((s) => s.refreshWorkspace);
  const all = useTraining((s) => s.runs);
  const runs = shown ?? all;
  const curves = useTraining((s) => s.curves);
  const [xMode, setXMode] = usePersisted<XMode>('runs.xAxis', 'epoch', validXMode);
  const [yScale, setYScale] = usePersisted<AxisScale>('runs.yScale', 'log', validScale);
  const [status, setStatus] = useState<{ ok: boolean; text: string; name?: string } | null>(null);
  // the workspace's headline convention: each epoch's validation relL2 on normalized or decoded fields
  const headline = useRelL2Headline();
  const val = (r: { val: { relL2: number; relL2Decoded: number } }) => (headline === 'decoded' ? r.val.relL2Decoded : r.val.relL2);

  const overlay = useMemo((): Trace[] => {
    const colors = PLOT_COLORS[theme].lines;
    const out: Trace[] = [];
    const xs = (id: string) => {
      const c = curves[id];
      return c ? epochX(c.steps, c.epochs, xMode) : [];
    };
    let i = 0;
    for (const key of selected) {
      const color = colors[i++ % colors.length]!;
      if (key.startsWith('run:')) {
        const id = key.slice(4);
        const run = runs.find((r) => r.id === id);
        const e = curves[id]?.epochs ?? [];
        if (!run) continue;
        out.push({ type: 'scatter', mode: 'lines+markers', name: run.name, x: xs(id), y: e.map(val), line: { color } });
      } else {
        const name = key.slice(6);
        const members = runs.filter((r) => r.group === name);
        const label = groupLabel(name, all);
        const stats = meanStdByEpoch(members.map((m) => (curves[m.id]?.epochs ?? []).map((r) => ({ epoch: r.epoch, value: val(r) }))));
        if (stats.epoch.length === 0) continue;
        // A group's x at epoch k: the mean of its members' x there (step counts and times differ by seed).
        const byEpoch = members.map((m) => new Map((curves[m.id]?.epochs ?? []).map((r, k) => [r.epoch, xs(m.id)[k]])));
        const gx = stats.epoch.map((ep) => {
          const v = byEpoch.map((b) => b.get(ep)).filter((x): x is number => typeof x === 'number');
          return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
        });
        const upper = stats.mean.map((m, k) => m + stats.std[k]!);
        const lower = stats.mean.map((m, k) => Math.max(m - stats.std[k]!, 1e-12));
        // one seed: its curve, no band of a std that is not there
        if (members.length > 1) out.push({ type: 'scatter', mode: 'lines', x: [...gx, ...[...gx].reverse()], y: [...upper, ...lower.reverse()], fill: 'toself', fillcolor: hexToRgba(color, 0.2), line: { width: 0 }, name: `${label} ±1 std`, hoverinfo: 'skip' });
        out.push({ type: 'scatter', mode: 'lines', x: gx, y: stats.mean, name: members.length > 1 ? `${label} (mean of ${members.length} seeds)` : `${label} (1 seed)`, line: { color, width: 2.5 } });
      }
    }
    return out;
  }, [selected, runs, all, curves, theme, xMode, headline]);
  const layout = useMemo(() => ({ xaxis: { title: X_TITLES[xMode] }, yaxis: { title: relL2Title('Validation relL2', headline), type: yScale }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 }, margin: { l: 60, r: 20, t: 50, b: 50 } }), [xMode, yScale, headline]);

  const exportCsv = async () => {
    if (!api) return;
    setStatus(null);
    try {
      const ids = selectedRunIds(selected, runs);
      // Every selected run's full history, not only what the overlay happened to load.
      await Promise.all(ids.map((id) => useTraining.getState().loadHistory(id)));
      const all = useTraining.getState().curves;
      const rows = curveRows(ids.map((id) => ({ id, name: runs.find((r) => r.id === id)!.name, curves: all[id] ?? { steps: [], epochs: [] } })));
      if (rows.length === 0) throw new Error('the selected runs have no recorded metrics yet');
      const name = await saveExport(api, host, exportFileName('Run curves', 'csv'), 'text/csv', utf8Bytes(toCsv(CURVE_COLUMNS, rows)));
      setStatus({ ok: true, text: `Saved exports/${name} (${rows.length} rows)`, name });
      void refreshWorkspace();
    } catch (e) {
      setStatus({ ok: false, text: `Curve export failed: ${errorText(e)}` });
    }
  };

  if (selected.size === 0) return <p className="muted">Select runs or groups above to overlay their curves.</p>;
  return (
    <>
      <div className="row wrap" role="group" aria-label="Overlay axes">
        <label className="small">x axis{' '}
          <select data-testid="runs-x-mode" value={xMode} onChange={(e) => setXMode(e.target.value as XMode)}>
            <option value="epoch">epoch</option>
            <option value="step">step</option>
            <option value="wall">wall time</option>
          </select>
        </label>
        <label className="small">y scale{' '}
          <select data-testid="runs-y-scale" value={yScale} onChange={(e) => setYScale(e.target.value as AxisScale)}>
            <option value="log">log</option>
            <option value="linear">linear</option>
          </select>
        </label>
        <button onClick={() => void exportCsv()} data-testid="curves-export">Export curves (CSV)</button>
        {status && <span role="status" className={status.ok ? 'muted' : 'error-message'} data-testid="curves-export-status">{status.text}</span>}
        {status?.name && <SaveCopyButton name={status.name} />}
      </div>
      <Plot title="Validation relL2 of the selected runs" data={overlay} layout={layout} height={320} testId="runs-overlay" />
    </>
  );
}
