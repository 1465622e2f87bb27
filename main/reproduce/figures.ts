// A reproduction's figure data: plain JSON the app plots (Fig. 3 bars, Figs. 5-6 rollout and
// step-wise error, Fig. 4 airfoil mesh fields). Built from evaluateRun's results and the table.
import type { EvaluationResult } from '../train/evaluation-result';
import type { ReproTable } from '../api/reproduce';

type Resolution = EvaluationResult['resolutions'][number];
/** `sample`: the validation row every model's figure shows. */
export interface Evaluated { label: string; runId: string; res: Resolution; sample: number }
export type FigureData = Record<string, unknown>;

const fieldOf = (e: Evaluated) => e.res.fields?.find((f) => f.index === e.sample);

/** Fig. 3: one bar per ablation arm, mean ± std of the best validation relL2 (normalized). */
export function ablationFigure(t: ReproTable): FigureData {
  return {
    kind: 'ablation-bars',
    metric: 'best validation relL2, normalized fields',
    bars: t.measured.map((r) => {
      const v = r.relL2;
      return typeof v === 'object' && v ? { label: r.model, mean: v.mean, std: v.std } : { label: r.model, mean: v, std: 0 };
    }),
    reported: t.reported.map((r) => ({ label: r.model, value: r.relL2 ?? null })),
  };
}

/** Fig. 6: per model, the step-wise relL2 on decoded fields, mean and std over validation trajectories. */
export function stepErrorFigure(ev: Evaluated[]): FigureData {
  return {
    kind: 'step-error',
    metric: 'per-step relL2 on decoded fields, mean ± std over validation trajectories',
    series: ev.filter((e) => e.res.metrics.steps).map((e) => ({ label: e.label, runId: e.runId, mean: e.res.metrics.steps!.mean, std: e.res.metrics.steps!.std })),
    reported: { label: 'LiNO (paper, read off Fig. 6)', step1: 1.5e-3, stepLast: 3.5e-3 },
  };
}

/** Fig. 5: one validation trajectory's (the first model's median) reference and predicted frames, per model. */
export function rolloutFigure(ev: Evaluated[]): FigureData {
  return {
    kind: 'rollout',
    grid: ev[0]?.res.grid ?? [],
    series: ev.map((e) => {
      const f = fieldOf(e);
      return { label: e.label, runId: e.runId, sample: f?.index ?? null, stepRelL2: f?.stepRelL2 ?? null, reference: f?.reference ?? [], prediction: f?.prediction ?? [] };
    }),
  };
}

/** Fig. 4: one validation airfoil's (the first model's median) mesh, reference Mach, prediction and error, per model. */
export function meshFigure(ev: Evaluated[]): FigureData {
  return {
    kind: 'mesh-field',
    grid: ev[0]?.res.grid ?? [],
    series: ev.map((e) => {
      const f = fieldOf(e);
      const ref = f?.reference[0] ?? [];
      const pred = f?.prediction[0] ?? [];
      return { label: e.label, runId: e.runId, sample: f?.index ?? null, x: f?.input[0] ?? [], y: f?.input[1] ?? [], reference: ref, prediction: pred, error: pred.map((v, i) => v - ref[i]!) };
    }),
  };
}
