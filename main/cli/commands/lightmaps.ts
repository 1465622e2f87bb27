// `lino lightmaps`: per block and point, how much the operator reflects, refracts and scatters,
// as float32 .npy files; from a config + weights + raw input (as `lino predict`), or
// from a run's checkpoint and one sample. --correlate: the per-block Pearson correlation of each
// map with the coefficient interface indicator |grad a| over a run's split (Darcy).
import { prepareOutputFolder } from '../../util/output-folder';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../ops/tf';
import type { CliCommand } from '../command';
import { UsageError, parseFlags, requireFlag } from '../args';
import { selectBackend } from '../../ops/backend';
import { LinoOperator } from '../../model/lino/operator';
import { parseLinoConfig } from '../../model/lino/config';
import { lightMaps, type LightMaps } from '../../model/lino/light-maps';
import { CORRELATED_MAPS } from '../../model/lino/light-map-correlation';
import { correlateSplit, type CorrelationTable } from '../../train/light-map-correlation-run';
import { RunStore } from '../../runs/run-store';
import { loadRunForLightMaps } from '../../train/light-maps-run';
import { writeNpy } from '../../data/formats/npy';
import { ndarray } from '../../data/ndarray';
import { loadOperatorWeights, operatorConfig, readInputF32 } from '../operator-files';

/** Writes every map of `maps` into dir; returns the file names. */
export function writeLightMaps(dir: string, maps: LightMaps): string[] {
  mkdirSync(dir, { recursive: true });
  const shape = [maps.batch, ...maps.grid];
  const files: string[] = [];
  const put = (name: string, data: Float32Array, s: number[] = shape) => {
    writeNpy(join(dir, name), ndarray(data, s, 'float32'));
    files.push(name);
  };
  maps.blocks.forEach((m, b) => {
    if (m.reflectionActivity) put(`block${b}_reflection_activity.npy`, m.reflectionActivity);
    if (m.refractionActivity) put(`block${b}_refraction_activity.npy`, m.refractionActivity);
    for (const k of m.components) put(`block${b}_contribution_${k}.npy`, m.contribution[k]!);
    put(`block${b}_dominant.npy`, Float32Array.from(m.dominant));
    put(`block${b}_latent_norm.npy`, m.latentNorm);
    if (m.kernel) put(`block${b}_scattering_kernel.npy`, m.kernel.row);
  });
  const local = maps.blocks.map((m, b) => (m.kernel ? { block: b, ...(m.kernel.local ?? {}) } : null)).filter((v) => v !== null);
  if (local.length > 0) {
    // the query's local neighbourhood (efficient scattering: flat indices and beta), for marking it on the kernel plot
    writeFileSync(join(dir, 'query.json'), JSON.stringify({ query: maps.query, grid: maps.grid, blocks: local }, null, 1) + '\n');
    files.push('query.json');
  }
  put('gates.npy', maps.gates, [maps.blocks.length, maps.batch, maps.gates.length / (maps.blocks.length * maps.batch)]);
  return files;
}

function parseQuery(s: string | undefined): number[] | undefined {
  if (s === undefined) return undefined;
  const q = s.split(',').map(Number);
  if (q.length < 1 || q.length > 2 || q.some((v) => !Number.isInteger(v) || v < 0)) throw new UsageError(`--query is '${s}', expected i or i,j (non-negative integers)`);
  return q;
}

const fmt = (r: number | null | undefined) => (r === undefined ? '' : r === null ? 'nan' : r.toFixed(4));

/** The correlation table (light-map-correlation-run.ts) printed, and written as CSV and LaTeX. */
function printCorrelation(t: CorrelationTable, csv: string | undefined, latex: string | undefined): void {
  const head = ['block', 'statistic', ...CORRELATED_MAPS];
  const lines = t.blocks.flatMap(({ block, maps }) => (['pooled', 'mean', 'std'] as const).map((st) => [String(block), st, ...CORRELATED_MAPS.map((k) => {
    const c = maps.find((m) => m.map === k);
    return fmt(c ? c[st] : undefined);
  })]));
  console.log(`Pearson r with |grad a| (coefficient channel 0), ${t.samples} samples: pooled over all points, and each sample's own r (mean, std over samples)`);
  const row = (cells: string[]) => cells.map((v, i) => (i === 0 ? v.padStart(5) : i === 1 ? v.padStart(10) : v.padStart(20))).join('');
  console.log(row(head));
  for (const l of lines) console.log(row(l));
  if (csv) {
    writeFileSync(csv, [head.join(','), ...lines.map((l) => l.join(','))].join('\n') + '\n');
    console.log(`written to ${csv}`);
  }
  if (latex) {
    const cols = ['block', 'statistic', 'refl. activity', 'refr. activity', 'refl. contrib.', 'refr. contrib.', 'scat. contrib.'];
    const body = lines.map((l) => l.map((v) => (v === '' ? '--' : v)).join(' & ') + ' \\\\');
    writeFileSync(latex, [`\\begin{tabular}{ll${'r'.repeat(CORRELATED_MAPS.length)}}`, '\\hline', cols.join(' & ') + ' \\\\', '\\hline', ...body, '\\hline', '\\end{tabular}'].join('\n') + '\n');
    console.log(`written to ${latex}`);
  }
}

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' }, weights: { type: 'string' }, input: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' },
      query: { type: 'string' }, backend: { type: 'string' },
      run: { type: 'string' }, checkpoint: { type: 'string', default: 'best' }, sample: { type: 'string', default: '0' },
      split: { type: 'string', default: 'val' }, correlate: { type: 'boolean', default: false }, csv: { type: 'string' }, latex: { type: 'string' },
    });
    const query = parseQuery(values.query);
    if (values.run) {
      if (values.weights || values.input) throw new UsageError('--run takes the weights and input from the run: leave out --weights and --input');
      if (values.checkpoint !== 'best' && values.checkpoint !== 'last') throw new UsageError(`--checkpoint is '${values.checkpoint}', expected best or last`);
      if (!['val', 'test', 'train'].includes(values.split!)) throw new UsageError(`--split is '${values.split}', expected val, test or train`);
      const sample = Number(values.sample);
      if (!Number.isInteger(sample) || sample < 0) throw new UsageError(`--sample is '${values.sample}', expected a non-negative integer`);
      const out = values.correlate ? values.out : requireFlag(values, 'out');
      const run = RunStore.openDir(values.run);
      await selectBackend(values.backend);
      const r = await loadRunForLightMaps(run, values.checkpoint, values.split as 'val');
      try {
        const xs = { data: Float32Array.from(r.split.x.data), shape: [...r.split.x.shape] };
        if (values.correlate) printCorrelation(await correlateSplit(r, run.configPath), values.csv, values.latex);
        if (out) {
          const S = xs.shape[0]!;
          if (sample >= S) throw new Error(`${values.run}: --sample ${sample} asked for, the '${values.split}' split has ${S} samples (0..${S - 1})`);
          prepareOutputFolder(out, { force: values.force });
          const per = xs.data.length / S;
          await writeFor(r.model, { data: xs.data.slice(sample * per, (sample + 1) * per), shape: [1, ...xs.shape.slice(1)] }, query, out);
        }
      } finally {
        r.model.dispose();
      }
      return 0;
    }
    if (values.correlate) throw new UsageError('--correlate needs --run DIR (a Darcy run: its coefficient is input channel 0)');
    const weights = requireFlag(values, 'weights');
    const input = requireFlag(values, 'input');
    const out = requireFlag(values, 'out');
    prepareOutputFolder(out, { force: values.force });
    const op = await operatorConfig(values.config, weights);
    if (op.kind !== 'lino') throw new Error(`${values.config ?? weights}: light maps are defined for LiNO's blocks; a '${op.kind}' model has none`);
    const cfg = parseLinoConfig(op.cfg, values.config ?? weights);
    const torch = op.torch;
    await selectBackend(values.backend);
    const x = readInputF32(input);
    if (x.shape.length !== cfg.dims + 2 || x.shape[x.shape.length - 1] !== cfg.inChannels) {
      throw new Error(`${input}: shape (${x.shape.join(', ')}), model expects ${cfg.dims === 1 ? `[B, Q, ${cfg.inChannels}]` : `[B, H, W, ${cfg.inChannels}]`}`);
    }
    const model = new LinoOperator(cfg);
    try {
      loadOperatorWeights(model, weights, torch);
      await writeFor(model, x, query, out);
    } finally {
      model.dispose();
    }
    return 0;
  },
};

async function writeFor(model: LinoOperator, x: { data: Float32Array; shape: number[] }, query: number[] | undefined, out: string): Promise<void> {
  const t = tf.tensor(x.data, x.shape);
  try {
    const maps = await lightMaps(model, t, query ? { query } : {});
    maps.y.dispose();
    const files = writeLightMaps(out, maps);
    console.log(`backend ${tf.getBackend()}: ${maps.blocks.length} blocks, (${x.shape.join(', ')}) -> ${files.length} files in ${out}`);
  } finally {
    t.dispose();
  }
}

export default command;
