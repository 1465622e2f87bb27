// The model builder's form: the kind, that kind's declared number fields (main/model/<kind>/kind.ts,
// through the contract), LiNO's block choices, coordinates, and the problem (a benchmark's shape or a
// workspace dataset, which sets the grid to its resolution; batch).
import { useState } from 'react';
import { DATA_SHAPES, LIMITS, MODEL_KIND_OPTIONS, draftDataShape, gridSideOf, withDataset, withDataShape, withKind, type DataShapeKey, type DraftErrors, type ModelDraft } from '../../logic/model-draft';
import { useApp } from '../../stores/app-store';
import { modelKindDeclaration, type ModelKind } from '../../../../main/api/contract';
import { DraftNumber } from './draft-number';
import { LinoBlockControls } from './lino-block-controls';

export function ModelForm({ draft, set, errors }: { draft: ModelDraft; set(d: ModelDraft): void; errors: DraftErrors }) {
  const decl = modelKindDeclaration(draft.kind);
  const own = (field: keyof typeof LIMITS, label: string) => ({ field, label, min: LIMITS[field][0], max: LIMITS[field][1] });
  return (
    <form className="card" onSubmit={(e) => e.preventDefault()} aria-label="Model configuration">
      <fieldset>
        <legend>Architecture</legend>
        <div className="field">
          <label htmlFor="model-kind">Model</label>
          <select id="model-kind" data-testid="model-kind" value={draft.kind} onChange={(e) => set(withKind(draft, e.target.value as ModelKind))}>
            {MODEL_KIND_OPTIONS.map((o) => <option key={o.kind} value={o.kind}>{o.label}</option>)}
          </select>
        </div>
        {decl.fields.map((f) => <DraftNumber key={`${draft.kind}-${f.field}`} descriptor={f} draft={draft} set={set} error={errors[f.field as keyof ModelDraft]} />)}
        {draft.kind === 'lino' && <LinoBlockControls draft={draft} set={set} error={errors.components} />}
        <div className="field">
          <label className="inline">
            <input type="checkbox" checked={draft.coordinates} data-testid="toggle-coordinates" onChange={() => set({ ...draft, coordinates: !draft.coordinates })} /> Append grid coordinates to the inputs
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Problem</legend>
        <div className="field">
          <label htmlFor="model-data">Data</label>
          <DataSelect draft={draft} set={set} />
        </div>
        {/* Derived, not typed: a run takes its channels from its dataset. */}
        <div className="field">
          <span className="label" id="model-channels-label">Channels (from the data)</span>
          <output aria-labelledby="model-channels-label" data-testid="model-channels">{draft.dims}D, {draft.inChannels} in → {draft.outChannels} out</output>
        </div>
        <DraftNumber descriptor={own('gridSide', draft.dims === 1 ? 'Grid points' : 'Grid points per axis')} draft={draft} set={set} error={errors.gridSide} />
        <DraftNumber descriptor={own('batch', 'Batch size')} draft={draft} set={set} error={errors.batch} />
      </fieldset>
    </form>
  );
}

const DATASET = 'dataset:';
/** One empty list: a selector answering a fresh [] each call makes zustand re-render forever (React error 185). */
const NO_DATASETS: never[] = [];

/**
 * The data a model is sized for: a benchmark's shape at its usual grid, or one of the workspace's
 * datasets at its own resolution (shown chosen while the draft still has that dataset's shape and grid).
 */
function DataSelect({ draft, set }: { draft: ModelDraft; set(d: ModelDraft): void }) {
  const datasets = useApp((s) => s.workspace?.datasets ?? NO_DATASETS).filter((ds) => withDataset(draft, ds) !== null);
  const [chosen, setChosen] = useState<string | null>(null);
  const ds = datasets.find((x) => x.id === chosen);
  const still = ds && draftDataShape(draft).key === ds.benchmark && draft.gridSide === gridSideOf(ds.grid!);
  const value = still ? `${DATASET}${ds.id}` : draftDataShape(draft).key;
  const pick = (v: string) => {
    if (v.startsWith(DATASET)) {
      const d = datasets.find((x) => x.id === v.slice(DATASET.length));
      const next = d && withDataset(draft, d);
      if (next) { setChosen(d.id); set(next); }
      return;
    }
    setChosen(null);
    set(withDataShape(draft, v as DataShapeKey));
  };
  return (
    <select id="model-data" data-testid="model-data" value={value} onChange={(e) => pick(e.target.value)}>
      {DATA_SHAPES.map((s) => <option key={s.key} value={s.key}>{s.label}</option>)}
      {datasets.length > 0 && (
        <optgroup label="Workspace datasets (their resolution)">
          {datasets.map((d) => <option key={d.id} value={`${DATASET}${d.id}`}>{d.name}</option>)}
        </optgroup>
      )}
    </select>
  );
}
