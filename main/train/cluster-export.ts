// "Run on a cluster": a self-contained folder for PyTorch's distributed engine: the run's data
// (prepared layout, .npy), its config.json, the scaleout package (the workbench's protocol in
// PyTorch), the torchrun command, a SLURM batch script and a README. The run trained there is
// written in the workbench's run format; copied back into the workspace's runs/ it opens and
// resumes like any other (docs/scaleout.md). Used by `lino export-run` and the app's
// runs.exportForCluster job.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunHandle } from '../runs/run-store';
import { parseRunConfig } from './runner';
import { loadTrainData } from './data-source';
import { modelConfigFor } from './trainer';
import type { TrainData, TrainSplit } from './data';
import type { PreparedDataset } from '../data/dataset';
import { exportDataset } from '../data/export';
import { ndarray } from '../data/ndarray';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomic-file';

import { scaleoutDir } from './scaleout-dir';

export interface ClusterExportOptions {
  /** GPUs (or CPU processes) per node. */
  nprocPerNode: number;
  nodes: number;
  workspace?: string;
  /** The caller checked the folder (new, empty, or --force): config.json there is not another export to keep. */
  overwrite?: boolean;
  /** fraction in [0, 1] and what is being written; throwing from it (a cancelled job) stops the export. */
  onProgress?: (fraction: number, message: string) => void;
}

export interface ClusterExport {
  out: string;
  /** The run folder the cluster job writes, relative to `out`. */
  runDir: string;
  files: string[];
  /** The one-machine torchrun command, run inside `out`. */
  command: string;
}

/** The prepared-layout exporter needs split indices and a test split: synthetic data has neither. */
export function asPrepared(data: TrainData, fallbackId: string): PreparedDataset {
  const withIndices = (s: TrainSplit | undefined, like: TrainSplit) => {
    const split = s ?? { x: { data: new Float32Array(0), shape: [0, ...like.x.shape.slice(1)] }, y: { data: new Float32Array(0), shape: [0, ...like.y.shape.slice(1)] } };
    const n = split.x.shape[0]!;
    const idx = (split as { indices?: Int32Array }).indices ?? Int32Array.from({ length: n }, (_, i) => i);
    const f32 = (a: TrainSplit['x']) => ndarray(a.data instanceof Float32Array ? a.data : Float32Array.from(a.data), [...a.shape], 'float32');
    return { x: f32(split.x), y: f32(split.y), indices: idx };
  };
  return {
    manifest: { ...data.manifest, id: data.manifest.id ?? fallbackId },
    train: withIndices(data.train, data.train),
    val: withIndices(data.val, data.train),
    test: withIndices(data.test, data.train),
  } as unknown as PreparedDataset;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export async function exportRunForCluster(run: RunHandle, outDir: string, o: ClusterExportOptions): Promise<ClusterExport> {
  const raw = run.readConfig();
  const cfg = parseRunConfig(raw, run.configPath);
  const SCALEOUT_DIR = scaleoutDir();
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  if (!o.overwrite && existsSync(join(out, 'config.json'))) throw new Error(`${out}: already holds an export (config.json); choose an empty folder`);
  const progress = o.onProgress ?? (() => {});
  progress(0.02, 'reading the run\'s data');
  const data = await loadTrainData(cfg.data, { workspace: o.workspace });
  progress(0.3, 'writing .npy files');
  const files = await exportDataset(asPrepared(data, `${run.id}-data`), 'npy', join(out, 'data'), 'prepared', (done, total) =>
    progress(0.3 + (0.6 * done) / Math.max(1, total), `wrote ${done} of ${total} arrays`));
  progress(0.92, 'writing the scaleout package and scripts');
  // Every default filled in (the parsed TrainConfig) and the model exactly as the registry builds it
  // on this data: scaleout/train.py reads both and copies no default of its own.
  writeJsonAtomic(join(out, 'config.json'), JSON.parse(JSON.stringify(cfg)));
  writeJsonAtomic(join(out, 'model.json'), { kind: cfg.model.kind, ...modelConfigFor(cfg, data) });
  mkdirSync(join(out, 'scaleout'), { recursive: true });
  for (const f of readdirSync(SCALEOUT_DIR).filter((n) => n.endsWith('.py'))) {
    copyFileSync(join(SCALEOUT_DIR, f), join(out, 'scaleout', f));
    files.push(join(out, 'scaleout', f));
  }
  const runDir = `runs/${run.id}-cluster`;
  const args = `-m scaleout.train --run-dir ${shellQuote(runDir)} --data data --config config.json`;
  const n = o.nprocPerNode;
  writeFileAtomic(join(out, 'run.sh'), [
    '#!/bin/sh',
    '# One machine: N processes (one per GPU; gloo on CPUs when there is no GPU). Run again to resume.',
    'cd "$(dirname "$0")"',
    `exec torchrun --standalone --nproc_per_node="\${NPROC:-${n}}" ${args} "$@"`,
    '',
  ].join('\n'));
  chmodSync(join(out, 'run.sh'), 0o755);
  writeFileAtomic(join(out, 'slurm.sbatch'), [
    '#!/bin/bash',
    `#SBATCH --job-name=lino-${run.id}`,
    `#SBATCH --nodes=${o.nodes}`,
    '#SBATCH --ntasks-per-node=1',
    `#SBATCH --gpus-per-node=${n}`,
    '#SBATCH --cpus-per-task=8',
    '#SBATCH --time=24:00:00',
    '#SBATCH --output=slurm-%j.out',
    '# Template: set the partition/account/time your cluster needs. Resubmitting resumes from checkpoints/last.',
    'set -euo pipefail',
    'cd "$SLURM_SUBMIT_DIR"',
    'head_node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
    `srun torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=${n} \\`,
    '  --rdzv_id="$SLURM_JOB_ID" --rdzv_backend=c10d --rdzv_endpoint="$head_node:29500" \\',
    `  ${args}`,
    '',
  ].join('\n'));
  writeFileAtomic(join(out, 'README.md'), readme(run.id, runDir, cfg.epochs, n, o.nodes, args));
  files.push(join(out, 'config.json'), join(out, 'model.json'), join(out, 'run.sh'), join(out, 'slurm.sbatch'), join(out, 'README.md'));
  return { out, runDir, files, command: `torchrun --standalone --nproc_per_node=${n} ${args}` };
}

function readme(id: string, runDir: string, epochs: number, n: number, nodes: number, args: string): string {
  return `# Run ${id} on a cluster

Exported by the workbench (Run on a cluster, or \`lino export-run\`). This folder holds everything the run needs:

- \`config.json\`: the run's configuration, every default filled in (model, ${epochs} epochs, batch, AdamW, StepLR, seed);
- \`model.json\`: the model as the workbench builds it on this data (kind, channels, width, depth or layers, modes or basis);
- \`data/\`: its dataset, normalized channels-last \`.npy\` arrays (\`{train,val,test}_{x,y}.npy\`) and the manifest with the normalizer;
- \`scaleout/\`: the workbench's training protocol in PyTorch (DistributedDataParallel);
- \`run.sh\`: the \`torchrun\` command for one machine; \`slurm.sbatch\`: a SLURM template for ${nodes} node(s) x ${n} GPU(s).

Needs Python 3 with PyTorch (>= 1.13) and NumPy; nothing else.

## Run

One machine, ${n} GPU(s) (NCCL; on a machine without GPUs the processes use gloo on the CPU):

    torchrun --standalone --nproc_per_node=${n} ${args}

Several machines: run on every node (the same command; the rendezvous joins them)

    torchrun --nnodes=NODES --nproc_per_node=${n} --rdzv_id=JOB --rdzv_backend=c10d --rdzv_endpoint=HEAD_HOST:29500 ${args}

or submit \`sbatch slurm.sbatch\` (edit partition, account and time first).

With Debian's python3-torch 1.13 under Python 3.11, torchrun stops at start with
\`'NoneType' object has no attribute 'get'\`: add \`--redirects 2 --tee 2\` (newer PyTorch is fine).

The batch size in config.json is the global batch: it is split between all processes, and the run
follows the same trajectory (up to float rounding) as a one-process run. Running the command again
resumes from \`${runDir}/checkpoints/last\`; \`--max-epochs K\` stops after K epochs of this call.

## Bring it back

\`${runDir}/\` is a workbench run folder (config.json, metrics.jsonl, status.json, checkpoints/last
and best as safetensors with the optimizer state). Copy it into the workspace's \`runs/\` folder: it
appears in the Runs view, and \`lino train --resume ${id}-cluster\` (or Resume in the app) continues it
from its last checkpoint. On a shared or synced file system the app shows the run while it trains.
`;
}

