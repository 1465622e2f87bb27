// The command table: name, summary and usage of every `lino` command, importable without loading
// any command (so `lino help` and `lino CMD --help` do not load TensorFlow.js); `load()` imports
// the command's module (commands/<cmd>.ts or commands/<cmd>-<sub>.ts) only when it runs.
import type { CliCommand } from '../command';

export interface CommandEntry {
  /** 'train', or 'data generate' for a subcommand of the 'data' group. */
  name: string;
  /** One line for `lino help`. */
  summary: string;
  /** What `lino help CMD` and `lino CMD --help` print. */
  usage: string;
  load(): Promise<{ default: CliCommand }>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: 'train',
    summary: 'train a run headless (progress bar, ETA, final metrics)',
    usage: `lino train --config run.json [--workspace DIR] [--backend NAME] [--id ID] [--quiet] [--json]
lino train --resume ID [--workspace DIR] [--backend NAME] [--json]

  run.json   a run configuration (TrainConfig in main/api/contract.ts; defaults = the paper's protocol),
             e.g. {"name": "darcy", "data": {"kind": "generate", "benchmark": "darcy", "preset": "quick"},
                   "model": {"width": 32, "depth": 4}, "epochs": 50}
  --workspace  folder holding runs/ (default: ~/LiNO-Workbench)
  --resume     continue a stopped or interrupted run from its checkpoints/last
  --backend torch[:cpu|:cuda|:mps] [--gpus N]
               train on PyTorch (python -m scaleout.train, torchrun for N > 1 GPUs) with the Python of
               LINO_PYTHON (else python3); the run is an ordinary workspace run, resumable on either backend
               (lino info --env shows what was found)
  --seeds N    a run group: the same configuration with seeds seed, seed+1, ... (one run each),
               then the best validation relL2 as mean ± std over the seeds
  --json       stdout: one JSON object per line ({"type":"run"}, each "step" and "epoch" record as
               in metrics.jsonl, then {"type":"summary"}); progress and messages go to stderr
  Ctrl-C stops after the current step (checkpoints/last holds the last finished epoch; resume
  with --resume ID) and exits with status 130; a second Ctrl-C quits at once`,
    load: () => import('./train'),
  },
  {
    name: 'sweep',
    summary: 'run a sweep (grid, random or TPE search, seeds, ASHA early stopping) or export it for a cluster',
    usage: `lino sweep --config sweep.json [--workspace DIR] [--id ID] [--backend NAME] [--json]
lino sweep --config sweep.json --export DIR [--force] [--nproc-per-node N] [--nodes N]
lino sweep --config sweep.json --collect DIR

  sweep.json  {"name", "base": a run configuration, "axes": [{"path": "optimizer.lr", "logRange": [1e-4, 1e-2]},
              {"path": "model.width", "values": [16, 32]}, {"path": "model.depth", "range": [2, 6], "int": true}],
              "method": "grid"|"random"|"tpe", "seeds": N, "budget": {"maxTrials", "maxWallSeconds"},
              "earlyStopping": {"minEpochs", "eta", "rungs"}} (main/sweep/sweep-config.ts; a grid needs "steps" on ranges)
  Each trial is a run in WORKSPACE/runs (group = its configuration); the sweep's state is WORKSPACE/sweeps/<id>/.
  Running the same command again resumes the sweep (after Ctrl-C, a crash or kill -9): no trial is lost or repeated.
  --id       the sweep's id (default: its name and a hash of the file)
  --export   write each trial for torchrun/SLURM (one array job, or run-all.sh: one torchrun per trial) into
             a new or empty DIR; --force writes into a folder that holds files (those of the same names replaced)
  --collect  copy the trials trained on the cluster back into runs/; the next run of the sweep records them
  --json     stdout: {"type":"sweep"}, a {"type":"trial"} per finished trial, then {"type":"summary"}
  exit status: 0 done, 1 the sweep or a trial failed, 2 usage, 130 Ctrl-C (resumable)`,
    load: () => import('./sweep'),
  },
  {
    name: 'eval',
    summary: 'evaluate a run checkpoint (both relL2 conventions, per sample, per step, per resolution)',
    usage: `lino eval --run DIR [--checkpoint best|last] [--split val|test|train] [--resolutions 21,43]
          [--steps N] [--data spec.json | --data '{"kind":"generate",...}'] [--export DIR [--format npy|mat]]
          [--spectrum DIR [--force]] [--json] [--backend NAME]

  --run          a run folder (workspace/runs/<id>)
  --data         a data specification (as a run config's "data"); default: the run's own data
  --resolutions  evaluate also at these resolutions (resolution transfer)
  --steps        autoregressive runs: rollout length (default: the run's T_out)
  --export       write the decoded predictions, the decoded reference and the rows' sample indices into DIR
  --format       npy (three .npy files, the default) or mat (one MATLAB v7.3 file: prediction, reference, indices)
  --spectrum     error spectrum (shell spectra, relative error per band, PDEBench's fRMSE low/mid/high) and the
                 physics check (Darcy residual, Burgers/Navier-Stokes conservation drift), prediction beside truth,
                 into DIR (a new or empty folder; --force overwrites): diagnostics.json, spectrum.csv, bands.csv,
                 physics.csv; LiNO runs also the spectrum of each block's reflection/refraction/scattering
                 contribution (first 16 samples): branch-spectra.csv, branch-bands.csv (docs/diagnostics.md)`,
    load: () => import('./eval'),
  },
  {
    name: 'cost',
    summary: 'accuracy against cost: the built-in solver at several resolutions and trained runs, timed on this machine',
    usage: `lino cost --benchmark darcy|burgers|navier-stokes [--resolutions A,B,C] [--samples N] [--run DIR ...]
          [--checkpoint best|last] [--batch N] [--seed N] [--out DIR [--force]] [--json] [--backend NAME]

  --resolutions  solver grids; the finest is the reference, every other must stride it. Darcy: 8..421,
                 (finest-1)/(s-1) whole; Burgers: powers of two 16..8192; Navier-Stokes: powers of two 8..256.
                 Default: around the first run's grid (Darcy s/2, s, 2s; Burgers s/2, s, 2s, 4s; Navier-Stokes
                 s/2, s, 2s), without a run Darcy 29,57,113, Burgers 128,256,512,1024, Navier-Stokes 16,32,64
  --samples      inputs drawn on the finest grid (default 4), strided to each coarser one, as the generator does
                 (Darcy: coefficients; Burgers: initial data; Navier-Stokes: initial vorticity, solved to T_in + T_out)
  --run          a trained run of that benchmark (repeatable): its inference timed at batch 1 and at --batch
                 (default: all samples), its error against the same finest solve at its own grid (which must
                 stride the finest); Navier-Stokes runs roll out T_out frames from the finest solve's T_in frames
  --out          a new or empty folder: cost.json and cost.csv (seconds per sample, relL2 against the reference)
  Timings are wall time per sample after one untimed warm-up, solver and models in the same process (docs/diagnostics.md).`,
    load: () => import('./cost'),
  },
  {
    name: 'predict',
    summary: 'run an operator (any model kind) on an .npy input and write the raw output',
    usage: `lino predict --config model.json --weights w.safetensors|CHECKPOINT.pt --input x.npy --out y.npy [--backend NAME] [--batch-size N]

  model.json  {"dims": 1|2, "inChannels": n, "outChannels": n, "width": M, "depth": L,
               "scattering": "efficient"|"full"|"standard", "components": ["reflection","refraction","scattering"]}
              "kind": "lino" (the default), or a baseline such as "fno" or "deeponet" with its own fields
              (a DeepONet also its "grid"; \`lino info --weights FILE\` prints a weights file's kind and config)
  x.npy       float32, channels-last, batch first: [B, Q, C_in] or [B, H, W, C_in], already normalized,
              coordinate channels included (exactly what the operator takes)
  --weights   safetensors, or a PyTorch .pt (torch.save; read with an allowlisting unpickler): then
              --config may be left out when the checkpoint fixes dims (efficient scattering)
  y.npy       float32 [B, ..., C_out], the raw projection (not de-normalized)
  --backend   tensorflow-gpu | webgpu | tensorflow | wasm | cpu (default: first that works, in that order)
  --batch-size  samples per forward pass (default 8) to bound memory`,
    load: () => import('./predict'),
  },
  {
    name: 'lightmaps',
    summary: 'light maps: where each block reflects, refracts and scatters, point by point (.npy per block)',
    usage: `lino lightmaps --config model.json --weights w.safetensors|CHECKPOINT.pt --input x.npy --out DIR [--force] [--query i | i,j] [--backend NAME]
lino lightmaps --run DIR [--checkpoint best|last] [--split val|test|train] [--sample N] --out DIR [--force] [--query i | i,j] [--backend NAME]
lino lightmaps --run DIR --correlate [--csv FILE] [--latex FILE] [--checkpoint best|last] [--split val|test|train] [--backend NAME]

  x.npy      the raw operator input, as for lino predict ([B, Q, C_in] or [B, H, W, C_in])
  --run      a run folder: its checkpoint, and sample N (default 0) of its split (default val)
  DIR gets float32 .npy files, each [B, ...grid] (b = block, 0-based; a switched-off branch has none):
    block{b}_reflection_activity.npy, block{b}_refraction_activity.npy   <h, vhat>^2 / ||h||^2
    block{b}_contribution_{reflection,refraction,scattering}.npy        alpha_r 2|<h,vhat>|, alpha_t |eta-1| |<h,vhat>|, alpha_s ||S(h)||
    block{b}_dominant.npy      index of the largest contribution among the block's enabled branches
    block{b}_latent_norm.npy   ||x|| of the residual stream entering the block
    block{b}_scattering_kernel.npy   with --query: the query point's global kernel row (full: softmax
                               row with the positional bias; efficient: (1 - beta) times the global weights)
    query.json                 with --query: the point, and per block its local 3x3 / 3-point neighbourhood
                               (flat indices) and beta (efficient scattering)
    gates.npy                  [depth, B, K]
  --correlate  per block, Pearson r over the split between each map and |grad a| of input channel 0
               (the Darcy coefficient), pooled over points; a table on stdout, --csv / --latex FILE to export it`,
    load: () => import('./lightmaps'),
  },
  {
    name: 'info',
    summary: 'print keys, shapes and the inferred config of a weights file, or the compute backends (--backends)',
    usage: `lino info --weights w.safetensors|CHECKPOINT.pt [--json]
lino info --backends [--backend NAME] [--json]   which backend training would use, why the others were skipped, and the WebGPU adapter
lino info --env [--json]   the backends and the Python with PyTorch the 'torch' backend runs (LINO_PYTHON, else python3): torch version, CUDA GPUs, MPS, CPU threads`,
    load: () => import('./info'),
  },
  {
    name: 'data generate',
    summary: 'generate a benchmark dataset offline (darcy, burgers, navier-stokes, airfoil)',
    usage: 'lino data generate darcy|burgers|navier-stokes|airfoil --preset tiny|quick|paper [--resolution N] [--samples N] [--seed S] [--frames T] [--t-in N --t-out N] [--clamp] --out DIR [--force] [--format mat73|npy] [--workspace DIR]\n  --t-in/--t-out: the Navier-Stokes training window the set is made for (frames >= t-in + t-out; default 10 + 10); --clamp: Darcy with the coefficient clamped to [3, 12] (not FNO\'s);\n  writes the variables in the published files\' layout (MAT v7.3 by default; airfoil as NACA_Cylinder_*.npy);\n  --workspace also prepares the dataset with the release\'s split and caches it in DIR/datasets',
    load: () => import('./data-generate'),
  },
  {
    name: 'data inspect',
    summary: 'list the variables of a data file (format, names, shapes, dtypes, sizes)',
    usage: 'lino data inspect FILE|FOLDER [--json]\n  FILE: .mat (v5/v7.3), .npy, .npz, .h5/.hdf5; FOLDER: a Geo-FNO airfoil folder or a stored dataset',
    load: () => import('./data-inspect'),
  },
  {
    name: 'data export',
    summary: 'export a stored dataset to .npy files or a MATLAB v7.3 file',
    usage: 'lino data export DATASET --format npy|mat73 --out DIR [--force] [--layout raw|prepared] [--workspace DIR]\n  DATASET: a dataset id in WORKSPACE/datasets, or the path of a dataset folder\n  raw (default): decoded fields in the published layout (a/u, coeff/sol, u, X/Y/mach), rows train, val, test\n  prepared: normalized channels-last arrays and the normalizer statistics',
    load: () => import('./data-export'),
  },
  {
    name: 'import',
    summary: 'import a PyTorch checkpoint (.pt) as a run; prints its id',
    usage: `lino import CHECKPOINT.pt [--data DATASET|SPEC] [--name NAME] [--workspace DIR] [--backend NAME] [--json]

  CHECKPOINT.pt  a torch.save file: the release's {model_state_dict, args, x_normalizer, y_normalizer,
                 epoch, best_val_rel, optimizer_state_dict, scheduler_state_dict} or a bare state_dict.
                 Read with an allowlisting unpickler: any other Python global is refused, never run.
  --data         the run's data: a dataset id of the workspace, a JSON spec ('{"kind":"generate",...}')
                 or a .json file holding one; its channels are checked against the checkpoint.
                 Without it the run is imported but cannot be evaluated (Fields, Gates, Rollout).
                 With it, the weights are evaluated once on the train and val splits: the run's one
                 metrics record (val errors, gate statistics and block scalars for the Gates view).
  --workspace    folder holding runs/ (default: ~/LiNO-Workbench)
  --backend      for that evaluation: tensorflow-gpu | tensorflow | wasm | cpu (default: first that works)
  --json         print {id, dir, config, notes} as JSON instead of the id`,
    load: () => import('./import'),
  },
  {
    name: 'export-run',
    summary: 'export a run for PyTorch on a cluster (torchrun, SLURM): data, config, scaleout package',
    usage: 'lino export-run RUN --out DIR [--force] [--nproc-per-node N] [--nodes N] [--workspace DIR]\n  RUN: a run id in WORKSPACE/runs, or the path of a run folder\n  --nproc-per-node  GPUs (processes) per node for run.sh and slurm.sbatch (default 1)\n  --nodes           nodes for slurm.sbatch (default 1)\n  --force           write into a folder that is not empty (files of the same names are replaced)',
    load: () => import('./export-run'),
  },
  {
    name: 'reproduce',
    summary: "reproduce one of the paper's tables or figures (6 presets) at a size that fits this machine",
    usage: `lino reproduce NAME [--size tiny|quick|paper] [--workspace DIR] [--out DIR] [--force] [--backend NAME|torch[:cpu|:cuda|:mps]]
lino reproduce --list

  NAME        a preset (or its number): burgers (Table 1), darcy-resolution (Table 2), darcy-ablation
              (Table 3, Fig. 3), darcy-scattering (full vs efficient), navier-stokes (Figs. 5-6), airfoil (Fig. 4)
  --size      tiny (seconds, what CI runs), quick (minutes, docs/reproduction.md), paper (the paper's protocol)
  --workspace folder whose runs/ receives the preset's runs (default: ~/LiNO-Workbench)
  --out       folder for the table (NAME-SIZE.csv, .tex, with the paper's rows labelled 'reported (paper)')
              and the figure data (NAME-SIZE-FIGURE.json); default WORKSPACE/exports/reproduce-NAME-SIZE
  --list      the presets, their sizes and estimated times
  Ctrl-C stops after the current step; the finished runs stay in the workspace (status 130)`,
    load: () => import('./reproduce'),
  },
  {
    name: 'report',
    summary: 'an offline report (one self-contained HTML file, optionally its PDF) of a run, a sweep or a reproduction',
    usage: `lino report ID --out FILE.html [--pdf FILE.pdf] [--kind run|sweep|reproduction] [--workspace DIR]

  ID      a run id (runs/<id>), a sweep id (sweeps/<id>), or a reproduction or ablation (its output folder's
          name, e.g. reproduce-darcy-ablation-tiny, or PRESET-SIZE)
  The file holds the configuration with defaults, seeds, data provenance (generator, parameters, content hash),
  the environment (backend, versions), the curves as inline SVG, tables in both relL2 conventions (normalized
  and decoded), notes and tags. No script and no URL: it opens offline and prints as it is.
  --pdf   also print it to PDF with a headless Chromium (CHROMIUM_PATH, else the usual install paths);
          without one, exit status 1 after writing the HTML
  --kind  which kind ID names, when a run, a sweep and a reproduction share it`,
    load: () => import('./report'),
  },
  {
    name: 'version',
    summary: 'print the workbench version',
    usage: 'lino version',
    load: () => import('./version'),
  },
];

/** Groups of subcommands ('data'): the first word of a two-word command. */
export const GROUPS: Record<string, string> = {
  data: 'datasets: generate a benchmark, inspect a file, export a stored dataset',
};
