// `lino data generate BENCHMARK --preset P --out DIR`: runs the offline generator (worker threads,
// progress, Ctrl-C cancels), writes the data in the published layout, and with --workspace also
// prepares and caches the dataset (release split/resize) exactly as the UI does.
import { prepareOutputFolder } from '../../util/output-folder';
import type { CliCommand } from '../command';
import { UsageError, parseFlags, requireFlag } from '../args';
import { generateDataset } from '../../data/generate/index';
import type { BenchmarkName, PresetName } from '../../data/generate/types';
import { BENCHMARKS } from '../../data/data-spec';
import { writeGeneratedDataset, type ExportFormat } from '../../data/export';
import { DatasetStore } from '../../data/dataset-store';
import { releaseOptions } from '../../data/pipeline';
import { generatedWindow } from '../../train/data-source';


function intFlag(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer, got '${v}'`);
  return n;
}

function progressPrinter(): (done: number, total: number, message?: string) => void {
  let lastPct = -1;
  return (done, total, message) => {
    const frac = total > 0 ? done / total : 1;
    if (process.stderr.isTTY) {
      const w = 24, k = Math.round(frac * w);
      process.stderr.write(`\r[${'#'.repeat(k)}${'-'.repeat(w - k)}] ${message ?? `${done}/${total}`}`.padEnd(100).slice(0, 120));
      if (done === total) process.stderr.write('\n');
    } else {
      const pct = Math.floor(frac * 10) * 10;
      if (pct !== lastPct) { lastPct = pct; process.stderr.write(`${message ?? `${done}/${total}`}\n`); }
    }
  };
}

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      preset: { type: 'string' }, resolution: { type: 'string' }, samples: { type: 'string' }, seed: { type: 'string' },
      frames: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, format: { type: 'string' }, workspace: { type: 'string' },
      't-in': { type: 'string' }, 't-out': { type: 'string' }, clamp: { type: 'boolean' },
    });
    const benchmark = positionals[0] as BenchmarkName;
    if (!BENCHMARKS.includes(benchmark)) throw new UsageError(`unknown benchmark '${positionals[0] ?? ''}' (expected ${BENCHMARKS.join(', ')})`);
    const preset = requireFlag(values, 'preset') as PresetName;
    const out = requireFlag(values, 'out');
    const format = (values.format ?? 'mat73') as ExportFormat;
    if (format !== 'mat73' && format !== 'npy') throw new UsageError(`--format must be mat73 or npy, got '${format}'`);
    prepareOutputFolder(out, { force: values.force }); // before the samples are computed, not after
    const ac = new AbortController();
    const onSigint = () => ac.abort(new Error('cancelled (Ctrl-C)'));
    process.once('SIGINT', onSigint);
    const show = progressPrinter();
    try {
      const t0 = Date.now();
      const gen = await generateDataset(benchmark, {
        preset, resolution: intFlag(values.resolution, 'resolution'), samples: intFlag(values.samples, 'samples'),
        seed: intFlag(values.seed, 'seed'), frames: intFlag(values.frames, 'frames'),
        tIn: intFlag(values['t-in'], 't-in'), tOut: intFlag(values['t-out'], 't-out'),
        ...(values.clamp ? { clamp: true } : {}),
      }, { signal: ac.signal, onProgress: (p) => show(p.done, p.total, p.message) });
      const files = await writeGeneratedDataset(gen, out, format);
      console.log(`generated ${benchmark} (${preset}) in ${((Date.now() - t0) / 1000).toFixed(1)} s:`);
      for (const f of files) console.log(`  ${f}`);
      if (values.workspace) {
        const N = Object.values(gen.variables)[0].shape[0];
        const opts = { ...releaseOptions(benchmark, N), resolution: undefined };
        const w = generatedWindow(gen.manifest); // a Navier-Stokes set is prepared with the window it was made for
        if (opts.ns && w) opts.ns = { ...opts.ns, tIn: w.tIn!, tOut: w.tOut! };
        const { dataset, cached } = await new DatasetStore(values.workspace).prepare({ kind: 'generated', dataset: gen }, opts);
        console.log(`dataset ${dataset.manifest.id} ${cached ? 'already cached' : 'prepared and cached'} (train/val ${dataset.manifest.counts.train}/${dataset.manifest.counts.val})`);
      }
      return 0;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};
export default command;
