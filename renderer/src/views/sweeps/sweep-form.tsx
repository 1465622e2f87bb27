// The Sweeps view's form: a dataset, the model kind, axes over the kind's fields (list, range, log
// range), method, seeds, budget, early stopping and the backend. It makes the same sweep.json as the JSON tab
// (logic/sweep-form.ts formToConfig); the engine checks it again when the sweep starts.
import { useApp } from '../../stores/app-store';
import { MODEL_KINDS, SWEEP_METHODS, modelKindDeclaration } from '../../../../main/api/contract';
import { BackendPicker } from '../../components/backend-picker';
import { useTorchProbe } from '../../queries/torch-probe';
import { defaultAxis, sweepableFields, type AxisMode, type FormAxis, type SweepForm } from '../../logic/sweep-form';

function AxisRow({ axis, i, kind, onChange, onRemove }: { axis: FormAxis; i: number; kind: string; onChange: (a: FormAxis) => void; onRemove: () => void }) {
  const fields = sweepableFields(kind);
  const set = (p: Partial<FormAxis>) => onChange({ ...axis, ...p });
  const n = i + 1;
  return (
    <div className="sweep-axis" role="group" aria-label={`Axis ${n}`} data-testid={`sweep-axis-${i}`}>
      <label>Field <select aria-label={`Axis ${n} field`} value={axis.path} onChange={(e) => {
        const f = fields.find((x) => x.path === e.target.value);
        if (f) onChange(defaultAxis(f));
      }}>
        {fields.map((f) => <option key={f.path} value={f.path}>{f.label} ({f.path})</option>)}
        {!fields.some((f) => f.path === axis.path) && <option value={axis.path}>{axis.path} (not a field of this kind)</option>}
      </select></label>
      <label>As <select aria-label={`Axis ${n} kind`} value={axis.mode} onChange={(e) => set({ mode: e.target.value as AxisMode })}>
        <option value="list">list</option><option value="range">range</option><option value="log">log range</option>
      </select></label>
      {axis.mode === 'list' ? (
        <label>Values <input aria-label={`Axis ${n} values`} value={axis.values} size={24} placeholder="4, 8, 16" onChange={(e) => set({ values: e.target.value })} /></label>
      ) : (
        <>
          <label>From <input aria-label={`Axis ${n} low`} value={axis.low} size={8} onChange={(e) => set({ low: e.target.value })} /></label>
          <label>to <input aria-label={`Axis ${n} high`} value={axis.high} size={8} onChange={(e) => set({ high: e.target.value })} /></label>
          <label>Steps <input aria-label={`Axis ${n} steps`} value={axis.steps} size={3} onChange={(e) => set({ steps: e.target.value })} /></label>
          <label><input type="checkbox" checked={axis.int} onChange={(e) => set({ int: e.target.checked })} /> whole numbers</label>
        </>
      )}
      <button onClick={onRemove} aria-label={`Remove axis ${n}`}>Remove</button>
    </div>
  );
}

export function SweepFormCard({ form, onChange }: { form: SweepForm; onChange: (f: SweepForm) => void }) {
  const datasets = useApp((s) => s.workspace?.datasets) ?? [];
  const set = (p: Partial<SweepForm>) => onChange({ ...form, ...p });
  const fields = sweepableFields(form.kind);
  const unused = fields.filter((f) => !form.axes.some((a) => a.path === f.path));
  const grid = form.method === 'grid';
  const probe = useTorchProbe().value;
  return (
    <div className="sweep-form" data-testid="sweep-form">
      <div className="sweep-form-row">
        <label>Name <input aria-label="Sweep name" value={form.name} onChange={(e) => set({ name: e.target.value.slice(0, 120) })} /></label>
        <label>Dataset <select aria-label="Dataset" value={form.dataset} onChange={(e) => set({ dataset: e.target.value })}>
          <option value="">small synthetic data (a try-out)</option>
          {datasets.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
        </select></label>
        <label>Model <select aria-label="Model kind" value={form.kind} onChange={(e) => {
          const kind = e.target.value;
          const ok = new Set(sweepableFields(kind).map((f) => f.path));
          set({ kind, axes: form.axes.filter((a) => ok.has(a.path)) });
        }}>
          {MODEL_KINDS.map((k) => <option key={k} value={k}>{modelKindDeclaration(k).name}</option>)}
        </select></label>
        <label>Epochs <input aria-label="Epochs per trial" value={form.epochs} size={5} onChange={(e) => set({ epochs: e.target.value })} /></label>
        <label>Batch size <input aria-label="Batch size" value={form.batchSize} size={4} onChange={(e) => set({ batchSize: e.target.value })} /></label>
      </div>
      {/* the trials' backend: the same picker (and measured speed) as Training, Ablation and Reproduce */}
      <BackendPicker value={form.backend ?? 'engine'} onChange={(backend) => set({ backend })} probe={probe} testId="sweep-backend" />
      <fieldset>
        <legend>Axes</legend>
        {form.axes.map((a, i) => (
          <AxisRow key={i} axis={a} i={i} kind={form.kind} onChange={(x) => set({ axes: form.axes.map((y, j) => (j === i ? x : y)) })} onRemove={() => set({ axes: form.axes.filter((_, j) => j !== i) })} />
        ))}
        <button disabled={unused.length === 0} onClick={() => set({ axes: [...form.axes, defaultAxis(unused[0]!)] })}>Add an axis</button>
      </fieldset>
      <div className="sweep-form-row">
        <label>Method <select aria-label="Method" value={form.method} onChange={(e) => set({ method: e.target.value as SweepForm['method'] })}>
          {SWEEP_METHODS.map((m) => <option key={m} value={m}>{m === 'tpe' ? 'TPE' : m}</option>)}
        </select></label>
        <label>Seeds per configuration <input aria-label="Seeds per configuration" value={form.seeds} size={3} onChange={(e) => set({ seeds: e.target.value })} /></label>
        {!grid && <label>Sampler seed <input aria-label="Sampler seed" value={form.samplerSeed} size={4} onChange={(e) => set({ samplerSeed: e.target.value })} /></label>}
        <label>Trials at most <input aria-label="Trials at most" value={form.maxTrials} size={5} placeholder={grid ? 'the grid' : 'required'} onChange={(e) => set({ maxTrials: e.target.value })} /></label>
        <label>Wall seconds at most <input aria-label="Wall seconds at most" value={form.maxWallSeconds} size={6} placeholder="none" onChange={(e) => set({ maxWallSeconds: e.target.value })} /></label>
      </div>
      <div className="sweep-form-row">
        <label><input type="checkbox" checked={form.earlyStopping} onChange={(e) => set({ earlyStopping: e.target.checked })} /> Early stopping (ASHA)</label>
        {form.earlyStopping && (
          <>
            <label>First rung (epochs) <input aria-label="First rung" value={form.minEpochs} size={3} onChange={(e) => set({ minEpochs: e.target.value })} /></label>
            <label>Keep the best 1/ <input aria-label="Reduction factor" value={form.eta} size={2} onChange={(e) => set({ eta: e.target.value })} /></label>
          </>
        )}
      </div>
    </div>
  );
}
