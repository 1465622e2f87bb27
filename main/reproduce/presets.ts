// The paper's six reproductions as one table: each preset is a benchmark, the arms (model configs)
// it trains, per size (tiny | quick | paper) the data, epochs, model size and seeds, and what it
// produces (a table beside the paper's reported rows, figure data). run-preset.ts runs any entry
// through the engine's own runner; nothing here knows how to train.
//
// Adding a model kind to a preset is one arm entry, as DeepONet in preset 1 (Table 1).
import type { TrainConfig, TrainConfigInput } from '../train/config';
import type { PublishedTable } from '../api/published';

export const PRESET_SIZES = ['tiny', 'quick', 'paper'] as const;
export type PresetSize = (typeof PRESET_SIZES)[number];

/** A run's `model` section as a preset writes it: its kind, and any field that differs from the defaults. */
type ModelInput = Partial<TrainConfig['model']> & { kind: TrainConfig['model']['kind'] };
type GenerateInput = Extract<TrainConfigInput['data'], { kind: 'generate' }>;

export interface PresetArm {
  /** Stable key (run names, published rows' `arm`). */
  key: string;
  label: string;
  /** The run's `model` section (kind, scattering, components...); width and depth come from the size. */
  model: ModelInput;
  /** Per size, model fields that differ from the size's (e.g. FNO's modes on a tiny grid). */
  sizes?: Partial<Record<PresetSize, Partial<TrainConfig['model']>>>;
}

export interface PresetSizeSpec {
  /** The generated benchmark (main/data/generate presets) and its overrides. */
  data: Omit<GenerateInput, 'kind' | 'benchmark'>;
  epochs: number;
  batchSize: number;
  /** Seeds per arm (seed 42, 43, ...): more than one gives mean ± std. */
  seeds: number;
  /** Model size every arm starts from. */
  width: number;
  depth: number;
  /** Resolution sweep: train at each of these (the data spec's `resolution`). */
  resolutions?: number[];
  /** Resolution transfer: the lowest-resolution model is also evaluated at these. */
  transfer?: number[];
  /**
   * Estimated wall time on this 2-core machine: tiny and quick as measured (docs/reproduction.md;
   * shared with other work, so they vary about 2x); paper: the paper's A800 hours times 20, a rough guess.
   */
  estimateSeconds: number;
}

/** What a preset writes besides its table. */
export type PresetFigure = 'ablation-bars' | 'step-error' | 'rollout' | 'mesh-field';

export interface ReproducePreset {
  name: string;
  number: number;
  title: string;
  /** The paper's table / figure it reproduces. */
  paper: string;
  benchmark: GenerateInput['benchmark'];
  /** The published rows shown beside the measured ones (main/api/published.ts); null: none (qualitative). */
  published: PublishedTable | null;
  arms: PresetArm[];
  sizes: Record<PresetSize, PresetSizeSpec>;
  /** Extra columns of the table: time per epoch, memory, rollout errors. */
  columns: ('seconds' | 'memory' | 'rollout' | 'resolution')[];
  figures: PresetFigure[];
}

const LINO_FULL: PresetArm = { key: 'lino-full', label: 'LiNO full', model: { kind: 'lino', scattering: 'full' } };
const LINO_EFFICIENT: PresetArm = { key: 'lino-efficient', label: 'LiNO efficient', model: { kind: 'lino', scattering: 'efficient' } };
const LINO: PresetArm = { key: 'lino', label: 'LiNO', model: { kind: 'lino', scattering: 'efficient' } };
/** FNO with its per-benchmark modes (registry default) except on tiny grids, where 4 modes fit. */
const fno = (widthBySize?: Partial<Record<PresetSize, number>>): PresetArm => ({
  key: 'fno',
  label: 'FNO',
  model: { kind: 'fno' },
  sizes: {
    tiny: { modes: 4, depth: 2 },
    quick: { modes: 8, depth: 4, ...(widthBySize?.quick ? { width: widthBySize.quick } : {}) },
    paper: { depth: 4, ...(widthBySize?.paper ? { width: widthBySize.paper } : {}) },
  },
});
/** DeepONet (the paper's Burgers baseline): 8 layers of width 128 at the paper size; smaller nets below it. */
const DEEPONET: PresetArm = {
  key: 'deeponet',
  label: 'DeepONet',
  model: { kind: 'deeponet' },
  sizes: { tiny: { width: 8, depth: 2, basis: 8 }, quick: { width: 64, depth: 4, basis: 64 }, paper: { width: 128, depth: 8, basis: 128 } },
};
const ablation = (key: string, label: string, components: ModelInput['components']): PresetArm => ({ key, label, model: { kind: 'lino', scattering: 'efficient', components } });

/** The paper's protocol at the paper size: width 128, 8 blocks, 500 epochs, batch 4 (protocol.md). */
const PAPER = { epochs: 500, batchSize: 4, seeds: 1, width: 128, depth: 8 };

export const REPRODUCE_PRESETS: readonly ReproducePreset[] = [
  {
    name: 'burgers',
    number: 1,
    title: 'Burgers s = 256: LiNO full vs efficient vs DeepONet vs FNO, time per epoch',
    paper: 'Table 1',
    benchmark: 'burgers',
    published: 'burgers-256',
    arms: [LINO_FULL, LINO_EFFICIENT, DEEPONET, fno({ paper: 64 })],
    sizes: {
      tiny: { data: { preset: 'tiny' }, epochs: 1, batchSize: 2, seeds: 1, width: 4, depth: 1, estimateSeconds: 10 },
      quick: { data: { preset: 'quick', samples: 200 }, epochs: 12, batchSize: 4, seeds: 1, width: 16, depth: 2, estimateSeconds: 150 },
      paper: { data: { preset: 'paper', resolution: 256 }, ...PAPER, estimateSeconds: 500 * (114 + 28) * 20 },
    },
    columns: ['seconds', 'memory'],
    figures: [],
  },
  {
    name: 'darcy-resolution',
    number: 2,
    title: 'Darcy resolution sweep, and the lowest-resolution model evaluated at the others',
    paper: 'Table 2',
    benchmark: 'darcy',
    published: 'darcy-resolution',
    arms: [LINO, fno()],
    sizes: {
      tiny: { data: { preset: 'tiny' }, epochs: 1, batchSize: 2, seeds: 1, width: 4, depth: 1, resolutions: [15, 29], transfer: [29], estimateSeconds: 15 },
      quick: { data: { preset: 'quick', samples: 120 }, epochs: 8, batchSize: 4, seeds: 1, width: 12, depth: 2, resolutions: [29, 43], transfer: [43, 85], estimateSeconds: 280 },
      paper: { data: { preset: 'paper' }, ...PAPER, resolutions: [85, 141, 211, 421], transfer: [141, 211, 421], estimateSeconds: (4 + 22 + 38.5 + 56) * 3600 * 20 },
    },
    columns: ['resolution'],
    figures: [],
  },
  {
    name: 'darcy-ablation',
    number: 3,
    title: 'Darcy ablation: full, without scattering, reflection or refraction (mean ± std over seeds)',
    paper: 'Table 3, Fig. 3',
    benchmark: 'darcy',
    published: 'darcy-ablation',
    arms: [
      ablation('full', 'LiNO full model', ['reflection', 'refraction', 'scattering']),
      ablation('no-scattering', 'LiNO w/o scattering', ['reflection', 'refraction']),
      ablation('no-reflection', 'LiNO w/o reflection', ['refraction', 'scattering']),
      ablation('no-refraction', 'LiNO w/o refraction', ['reflection', 'scattering']),
    ],
    sizes: {
      tiny: { data: { preset: 'tiny' }, epochs: 1, batchSize: 2, seeds: 2, width: 4, depth: 1, estimateSeconds: 10 },
      quick: { data: { preset: 'quick', samples: 100, generateResolution: 29 }, epochs: 6, batchSize: 4, seeds: 3, width: 12, depth: 2, estimateSeconds: 210 },
      paper: { data: { preset: 'paper', resolution: 85 }, ...PAPER, seeds: 3, estimateSeconds: 12 * 4 * 3600 * 20 },
    },
    columns: [],
    figures: ['ablation-bars'],
  },
  {
    name: 'darcy-scattering',
    number: 4,
    title: 'Full vs efficient scattering at one Darcy resolution: error, time per epoch, memory',
    paper: 'Section 4 (Darcy s = 85)',
    benchmark: 'darcy',
    published: 'darcy-scattering',
    arms: [LINO_FULL, LINO_EFFICIENT],
    sizes: {
      tiny: { data: { preset: 'tiny' }, epochs: 1, batchSize: 2, seeds: 1, width: 4, depth: 1, estimateSeconds: 12 },
      quick: { data: { preset: 'quick', samples: 100, generateResolution: 29 }, epochs: 6, batchSize: 4, seeds: 1, width: 12, depth: 2, estimateSeconds: 60 },
      paper: { data: { preset: 'paper', resolution: 85 }, ...PAPER, estimateSeconds: (16.5 + 4) * 3600 * 20 },
    },
    columns: ['seconds', 'memory'],
    figures: [],
  },
  {
    name: 'navier-stokes',
    number: 5,
    title: 'Navier-Stokes rollout and step-wise error with its band, LiNO and FNO',
    paper: 'Figs. 5-6',
    benchmark: 'navier-stokes',
    published: 'navier-stokes',
    arms: [LINO, fno()],
    sizes: {
      tiny: { data: { preset: 'tiny' }, epochs: 1, batchSize: 2, seeds: 1, width: 4, depth: 1, estimateSeconds: 20 },
      quick: { data: { preset: 'quick', samples: 40, generateResolution: 32 }, epochs: 6, batchSize: 4, seeds: 1, width: 12, depth: 2, estimateSeconds: 280 },
      paper: { data: { preset: 'paper' }, ...PAPER, estimateSeconds: 500 * 3600 }, // the paper gives no hours: ~1 h per epoch here, a guess
    },
    columns: ['rollout'],
    figures: ['step-error', 'rollout'],
  },
  {
    name: 'airfoil',
    number: 6,
    title: 'Airfoil: reference vs prediction vs error on the curvilinear mesh, LiNO and FNO',
    paper: 'Fig. 4',
    benchmark: 'airfoil',
    published: null,
    arms: [LINO, fno()],
    sizes: {
      tiny: { data: { preset: 'tiny' }, epochs: 1, batchSize: 2, seeds: 1, width: 4, depth: 1, estimateSeconds: 15 },
      quick: { data: { preset: 'quick', samples: 60 }, epochs: 6, batchSize: 4, seeds: 1, width: 12, depth: 2, estimateSeconds: 135 },
      paper: { data: { preset: 'paper' }, ...PAPER, estimateSeconds: 500 * 3600 }, // the paper gives no hours: ~1 h per epoch here, a guess
    },
    columns: [],
    figures: ['mesh-field'],
  },
];

export function presetNamed(name: string): ReproducePreset | undefined {
  return REPRODUCE_PRESETS.find((p) => p.name === name || String(p.number) === name);
}

/** The run configuration of one arm, seed and resolution of a preset at a size. */
export function armConfig(p: ReproducePreset, size: PresetSize, arm: PresetArm, seed: number, resolution?: number): TrainConfigInput {
  const s = p.sizes[size];
  return {
    name: `${p.name}-${size}/${arm.key}${resolution ? `@${resolution}` : ''}`,
    model: { width: s.width, depth: s.depth, ...arm.model, ...arm.sizes?.[size] },
    data: { kind: 'generate', benchmark: p.benchmark, ...s.data, ...(resolution ? { resolution } : {}) },
    epochs: s.epochs,
    batchSize: s.batchSize,
    seed,
  };
}
