// For LiNO runs, the light maps of the Playground's current input, compact: per block
// the branch that dominates each point (the Light maps view's 'Dominant branch' figure) and the
// branches' gates. They come with the prediction (playground.predict lightMaps) while switched on.
import { useMemo } from 'react';
import { Plot } from '../../plots/plot';
import { singleFigure } from '../../plots/light-map-traces';
import { usePlayground } from '../../stores/playground';

export function LightMapsPanel() {
  const on = usePlayground((s) => s.withLightMaps);
  const setOn = usePlayground((s) => s.setWithLightMaps);
  const maps = usePlayground((s) => s.prediction?.lightMaps);
  const figures = useMemo(() => (maps ? maps.blocks.map((b, i) => {
    const values = b.dominant.map((k) => ['reflection', 'refraction', 'scattering'].indexOf(b.components[k]!));
    const gates = b.components.map((c, j) => `${c} ${b.gates[j]!.toFixed(2)}`).join(', ');
    return { ...singleFigure(values, maps.grid, 'dominant', `Block ${i + 1}: dominant branch`), gates };
  }) : []), [maps]);
  return (
    <div className="card" data-testid="playground-lightmaps">
      <h2>Light maps of this input</h2>
      <label><input type="checkbox" checked={on} data-testid="playground-lightmaps-toggle" onChange={(e) => setOn(e.target.checked)} /> Show each block&apos;s dominant branch and gates (LiNO)</label>
      {on && !maps && <p className="muted small">Waiting for the next prediction…</p>}
      <div className="fields-grid">
        {figures.map((f, i) => (
          <div key={i} data-testid={`playground-lightmap-${i}`}>
            <Plot title={`Block ${i + 1}: dominant branch`} data={f.data} layout={f.layout} height={260} testId={`playground-lightmap-plot-${i}`} />
            <p className="muted small">Gates: {f.gates}</p>
          </div>
        ))}
      </div>
    </div>
  );
}
