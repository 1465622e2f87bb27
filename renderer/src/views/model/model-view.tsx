// The model builder: the model kind (LiNO, or the FNO and DeepONet baselines), that kind's declared
// fields (main/model/<kind>/kind.ts, through the contract), LiNO's block and a diagram of it, and the
// engine's parameter count, memory and FLOPs of one training step on the chosen grid, with a
// warning before a configuration that will not fit the wasm backend.
import { useEffect } from 'react';
import { useApp } from '../../stores/app-store';
import { validateDraft } from '../../logic/model-draft';
import { BlockDiagram } from '../../components/block-diagram';
import { ModelForm } from './model-form';
import { EstimateCard } from './estimate-card';
import { MemorySweep } from './memory-sweep';

export function ModelView() {
  const draft = useApp((s) => s.modelDraft);
  const setDraft = useApp((s) => s.setModelDraft);
  const estimate = useApp((s) => s.modelEstimate);
  const estimateModel = useApp((s) => s.estimateModel);
  const api = useApp((s) => s.api);
  const backend = useApp((s) => s.engine?.backend.active);
  const errors = validateDraft(draft);

  useEffect(() => {
    if (!api) return;
    const t = setTimeout(() => void estimateModel(), 150);
    return () => clearTimeout(t);
  }, [api, draft, estimateModel]);

  const result = estimate?.result ?? null;
  return (
    <section aria-labelledby="model-title" className="model-view">
      <h1 id="model-title">Model</h1>
      <p className="muted">Build a LiNO configuration, or an FNO or DeepONet baseline trained on the same data, split and metric. The Training view starts runs from it.</p>
      <div className="model-grid">
        <ModelForm draft={draft} set={setDraft} errors={errors} />
        <EstimateCard draft={draft} errors={errors} estimate={estimate} backend={backend} />
      </div>

      {draft.kind === 'lino' && (
        <div className="card">
          <h2>Light-evolution block</h2>
          <BlockDiagram components={draft.components} scattering={draft.scattering} depth={draft.depth} width={draft.width} />
        </div>
      )}

      {result && Object.keys(errors).length === 0 && <MemorySweep result={result} draft={draft} />}
    </section>
  );
}
