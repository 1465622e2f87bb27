// The paper's reported numbers, typed, for the "reported (paper)" rows of comparison tables. Pure
// data in main/api so that the CLI's tables and the views (the Ablation view's Table 3) read the same rows.
// Source: the paper "Light-inspired Neural Operator (LiNO)" (Tables 1-3, Figs. 3-6) as gathered in docs/protocol.md,
// section "The paper's reported results". They are never measured here: tables keep them apart
// from measured rows and label each one 'reported (paper)' (REPORTED_ROW_LABEL, main/api/reproduce.ts)
// with its metric convention.

/** Where the numbers come from, printed under each table that shows them. */
export const PUBLISHED_SOURCE = 'the paper "Light-inspired Neural Operator (LiNO)", Tables 1-3 and Figs. 3-6';

/**
 * 'normalized': relL2 on normalized fields (the LiNO paper's own runs); 'decoded': relL2 on
 * physical fields (rows the paper copies from the FNO paper). The two are different numbers.
 */
export type MetricConvention = 'normalized' | 'decoded';

export const CONVENTION_TEXT: Record<MetricConvention, string> = {
  normalized: 'relL2 on normalized fields (LiNO paper convention)',
  decoded: 'relL2 on decoded fields (FNO paper convention, copied by the LiNO paper)',
};

/** Which of the paper's tables or figures a row belongs to. */
export type PublishedTable = 'burgers-256' | 'darcy-resolution' | 'darcy-ablation' | 'darcy-scattering' | 'navier-stokes';

export interface PublishedRow {
  table: PublishedTable;
  /** The model as the paper names it ('FNO', 'LiNO full', 'LiNO w/o scattering'). */
  model: string;
  /** The measured arm it sits beside (a preset arm key), when the workbench trains that model. */
  arm?: string;
  /** Grid size s (Darcy resolution sweep). */
  resolution?: number;
  /** Validation relative L2; null where the paper gives none ('-'). */
  relL2: number | null;
  convention: MetricConvention;
  secondsPerEpoch?: number;
  peakMemoryGiB?: number;
  trainHours?: number;
  /** Navier-Stokes: full-rollout relL2 (all 10 frames at once, normalized). */
  rolloutRelL2?: number;
  note?: string;
}

const burgers = (model: string, relL2: number, convention: MetricConvention, extra: Partial<PublishedRow> = {}): PublishedRow => ({ table: 'burgers-256', model, relL2, convention, ...extra });

const DARCY_RES = [85, 141, 211, 421] as const;
const darcy = (model: string, values: (number | null)[], convention: MetricConvention, extra: Partial<PublishedRow> = {}, hours?: number[]): PublishedRow[] =>
  DARCY_RES.map((resolution, i) => ({ table: 'darcy-resolution' as const, model, resolution, relL2: values[i]!, convention, ...extra, ...(hours ? { trainHours: hours[i]! } : {}) }));

/** Every number of protocol.md's "reported results", one row per model (and resolution). */
export const PUBLISHED: readonly PublishedRow[] = [
  // Table 1, Burgers s = 256 (time per epoch on one A800)
  burgers('NN', 4.71e-1, 'decoded'),
  burgers('GCN', 4.0e-1, 'decoded'),
  burgers('FCN', 9.58e-2, 'decoded'),
  burgers('PCANN', 3.98e-2, 'decoded'),
  burgers('GNO', 5.55e-2, 'decoded'),
  burgers('DeepONet', 3.5e-2, 'normalized', { arm: 'deeponet', note: 'trained by the LiNO authors with their pipeline' }),
  burgers('LNO', 2.12e-2, 'decoded'),
  burgers('MGNO', 2.43e-2, 'decoded'),
  burgers('FNO', 1.49e-2, 'decoded', { arm: 'fno' }),
  burgers('LiNO efficient', 1.09e-2, 'normalized', { arm: 'lino-efficient', secondsPerEpoch: 28 }),
  burgers('LiNO full', 3.19e-3, 'normalized', { arm: 'lino-full', secondsPerEpoch: 114 }),
  // Table 2, Darcy resolution sweep
  ...darcy('FCN', [2.53e-2, 4.93e-2, 7.27e-2, 1.1e-1], 'decoded'),
  ...darcy('PCANN', [2.99e-2, 2.98e-2, 2.98e-2, 2.99e-2], 'decoded'),
  ...darcy('RBM', [2.44e-2, 2.51e-2, 2.55e-2, 2.59e-2], 'decoded'),
  ...darcy('GNO', [3.46e-2, 3.32e-2, 3.42e-2, 3.69e-2], 'decoded'),
  ...darcy('LNO', [5.2e-2, 4.61e-2, 4.45e-2, null], 'decoded'),
  ...darcy('MGNO', [4.16e-2, 4.28e-2, 4.28e-2, 4.2e-2], 'decoded'),
  ...darcy('FNO', [1.08e-2, 1.09e-2, 1.09e-2, 9.8e-3], 'decoded', { arm: 'fno' }),
  ...darcy('LiNO', [5.91e-3, 6.37e-3, 6.85e-3, 8.28e-3], 'normalized', { arm: 'lino' }, [4, 22, 38.5, 56]),
  // Darcy s = 85, full vs efficient scattering
  { table: 'darcy-scattering', model: 'LiNO full', arm: 'lino-full', resolution: 85, relL2: 5.94e-3, convention: 'normalized', peakMemoryGiB: 12.7, trainHours: 16.5 },
  { table: 'darcy-scattering', model: 'LiNO efficient', arm: 'lino-efficient', resolution: 85, relL2: 5.91e-3, convention: 'normalized', peakMemoryGiB: 3.23, trainHours: 4 },
  // Table 3 / Fig. 3, Darcy s = 85 ablation
  { table: 'darcy-ablation', model: 'LiNO full model', arm: 'full', resolution: 85, relL2: 5.91e-3, convention: 'normalized' },
  { table: 'darcy-ablation', model: 'LiNO w/o scattering', arm: 'no-scattering', resolution: 85, relL2: 5.95e-2, convention: 'normalized' },
  { table: 'darcy-ablation', model: 'LiNO w/o reflection', arm: 'no-reflection', resolution: 85, relL2: 6.31e-3, convention: 'normalized' },
  { table: 'darcy-ablation', model: 'LiNO w/o refraction', arm: 'no-refraction', resolution: 85, relL2: 5.94e-3, convention: 'normalized' },
  // Navier-Stokes 64 x 64 (Figs. 5-6): the release's "one-step" is the mean over the 10 rollout steps
  {
    table: 'navier-stokes', model: 'LiNO', arm: 'lino', resolution: 64, relL2: 2.8e-3, rolloutRelL2: 2.92e-3, convention: 'normalized',
    note: 'step-wise curve (decoded) rises from about 1.5e-3 (step 1) to about 3.5e-3 (step 10)',
  },
];

/** The published rows of one of the paper's tables. */
export function publishedRows(table: PublishedTable): PublishedRow[] {
  return PUBLISHED.filter((r) => r.table === table);
}
