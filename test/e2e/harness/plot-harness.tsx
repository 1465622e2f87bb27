// A page that mounts the real <Plot> wrapper (not the app), for the browser test of the wrapper:
// a 100k-point curve, a 256x256 heatmap, a data update, a theme switch and an unmount.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Plot } from '../../../renderer/src/plots/plot';
import { heatmapTrace, lineTrace } from '../../../renderer/src/plots/traces';
import { useApp } from '../../../renderer/src/stores/app-store';

const N = 100_000;
const curve = (k: number) => Array.from({ length: N }, (_, i) => Math.exp(-i / 20_000) * (1 + 0.1 * Math.sin(i * k)) + (i === 54_321 ? 3 : 0));
const field = (k: number) => Float64Array.from({ length: 256 * 256 }, (_, i) => Math.sin(((i % 256) * k) / 40) * Math.cos(Math.floor(i / 256) / 30));

function Harness() {
  const [k, setK] = useState(1);
  const [shown, setShown] = useState(true);
  const theme = useApp((s) => s.theme);
  const line = [lineTrace({ y: curve(k), name: 'train loss' })];
  const heat = [heatmapTrace({ values: field(k), nx: 256, ny: 256, scale: 'viridis', colorbarTitle: 'u' })];
  return (
    <main>
      <h1>Plot harness</h1>
      <button onClick={() => setK((v) => v + 1)}>Update data</button>
      <button onClick={() => useApp.getState().setTheme(theme === 'light' ? 'dark' : 'light')}>Toggle theme</button>
      <button onClick={() => setShown((v) => !v)}>Toggle plots</button>
      {shown && (
        <>
          <Plot testId="line" title="Loss curve" data={line} layout={{ xaxis: { title: 'Step' }, yaxis: { title: 'Loss', type: 'log' } }} exportable={false} />
          <Plot testId="heat" title="Field" data={heat} layout={{ xaxis: { title: 'x' }, yaxis: { title: 'y', scaleanchor: 'x' } }} height={360} exportable={false} />
        </>
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Harness />);
