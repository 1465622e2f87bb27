// `lino reproduce NAME [--size tiny|quick|paper]`: one of the paper's reproductions
// (main/reproduce/presets.ts) run headless: its runs go into the workspace, its table (CSV,
// LaTeX, with the paper's reported rows apart and labelled) and figure data (JSON) into --out.
// `lino reproduce --list` lists the presets with their sizes and estimated times.
import { prepareOutputFolder } from '../../util/output-folder';
import { resolve, join } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags } from '../args';
import { PRESET_SIZES, REPRODUCE_PRESETS, presetNamed, type PresetSize } from '../../reproduce/presets';
import { presetInfo } from '../../reproduce/preset-info';
import { formatTextTable } from '../../reproduce/text-table';
import { Workspace, defaultWorkspacePath } from '../../workspace/workspace';
import { selectBackend } from '../../ops/backend';

const fmtTime = (s: number) => (s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : s < 86400 * 3 ? `${(s / 3600).toFixed(1)} h` : `${(s / 86400).toFixed(0)} days`);

function list(): number {
  for (const info of REPRODUCE_PRESETS.map(presetInfo)) {
    console.log(`${info.number}. ${info.name.padEnd(18)} ${info.paper}: ${info.title}`);
    for (const s of info.sizes) console.log(`     --size ${s.size.padEnd(6)} ~${fmtTime(s.estimateSeconds).padEnd(9)} ${s.summary}`);
  }
  return 0;
}

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      list: { type: 'boolean', default: false },
      size: { type: 'string', default: 'tiny' },
      workspace: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      backend: { type: 'string' },
    });
    if (values.list) {
      if (positionals.length) throw new UsageError(`NAME '${positionals[0]}' and --list: give one of them`);
      return list();
    }
    if (positionals.length !== 1) throw new UsageError(positionals.length ? `NAME: one preset, got ${positionals.length} (${positionals.join(', ')})` : `missing NAME: one of ${REPRODUCE_PRESETS.map((p) => p.name).join(', ')} (or --list)`);
    const preset = presetNamed(positionals[0]!);
    if (!preset) throw new UsageError(`NAME '${positionals[0]}' is not a preset; expected one of ${REPRODUCE_PRESETS.map((p) => p.name).join(', ')}`);
    if (!(PRESET_SIZES as readonly string[]).includes(values.size!)) throw new UsageError(`--size is '${values.size}', expected tiny, quick or paper`);
    const size = values.size as PresetSize;
    const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
    // an --out the user names must be new or empty (or --force); the default is the workbench's own exports/ folder
    const outDir = values.out ? prepareOutputFolder(values.out, { force: values.force }) : resolve(join(ws.path, 'exports', `reproduce-${preset.name}-${size}`));
    // --backend torch[:cpu|:cuda|:mps]: every run trains on PyTorch (the engine's cpu backend builds the initial weights and evaluates)
    const torch = values.backend?.startsWith('torch') ?? false;
    if (torch && !/^torch(:(cpu|cuda|mps))?$/.test(values.backend!)) throw new UsageError(`--backend '${values.backend}': expected torch, torch:cpu, torch:cuda or torch:mps`);
    await selectBackend(torch ? 'cpu' : values.backend);
    const controller = new AbortController();
    const onSig = () => {
      if (controller.signal.aborted) process.exit(130);
      process.stderr.write('\nstopping after this step (Ctrl-C again to quit at once)\n');
      controller.abort();
    };
    process.on('SIGINT', onSig);
    const t0 = Date.now();
    let last = '';
    const { runPreset } = await import('../../reproduce/run-preset');
    try {
      const r = await runPreset(preset, size, {
        workspace: ws.path, outDir, signal: controller.signal, owner: 'lino reproduce', ...(torch ? { backend: values.backend! } : {}),
        onProgress: (f, m) => {
          if (m === last) return;
          last = m;
          const el = (Date.now() - t0) / 1000;
          process.stderr.write(`[${(f * 100).toFixed(0).padStart(3)}%] ${m}${f > 0.02 && f < 1 ? `  ETA ${fmtTime((el * (1 - f)) / f)}` : ''}\n`);
        },
      });
      for (const t of r.tables) console.log(`\n${formatTextTable(t)}`);
      console.log(`\nruns: ${r.runs.map((x) => x.id).join(', ')}`);
      console.log(`files (${outDir}):\n${r.files.map((f) => `  ${f}`).join('\n')}`);
      console.log(`${preset.name} (${size}) took ${fmtTime(r.seconds)}`);
      return 0;
    } catch (e) {
      if (controller.signal.aborted) {
        process.stderr.write('reproduction cancelled; the finished runs stay in the workspace\n');
        return 130;
      }
      throw e;
    } finally {
      process.off('SIGINT', onSig);
    }
  },
};
export default command;
