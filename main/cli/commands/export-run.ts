// `lino export-run RUN --out DIR`: "Run on a cluster". Writes a self-contained folder for PyTorch's
// distributed engine: the run's data (prepared layout, .npy), its config.json, the scaleout package
// (the workbench's protocol in PyTorch), the torchrun command, a SLURM batch script and a README.
// The run trained there is written in the workbench's run format; copied back into the workspace's
// runs/ it opens and resumes like any other (docs/scaleout.md).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags, requireFlag } from '../args';
import { Workspace, defaultWorkspacePath } from '../../workspace/workspace';
import { RunStore } from '../../runs/run-store';
import { exportRunForCluster } from '../../train/cluster-export';
import { prepareOutputFolder } from '../../util/output-folder';

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      out: { type: 'string' }, force: { type: 'boolean' }, workspace: { type: 'string' }, 'nproc-per-node': { type: 'string' }, nodes: { type: 'string' },
    });
    const ref = positionals[0];
    if (!ref) throw new Error('missing RUN (try lino export-run --help)');
    const out = requireFlag(values, 'out');
    const int = (name: string, v: string | undefined) => {
      const k = Number(v ?? '1');
      if (!Number.isInteger(k) || k < 1) throw new UsageError(`--${name}: expected an integer >= 1, got '${v}'`);
      return k;
    };
    const nprocPerNode = int('nproc-per-node', values['nproc-per-node']);
    const nodes = int('nodes', values.nodes);
    const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
    const run = existsSync(join(ref, 'config.json')) ? RunStore.openDir(ref) : new RunStore(ws.dir('runs')).open(ref);
    // README.md, run.sh, data/ ... would replace a user's own files: a new or empty folder, or --force.
    const r = await exportRunForCluster(run, prepareOutputFolder(out, { force: values.force }), { nprocPerNode, nodes, workspace: ws.path, overwrite: true });
    console.log(`exported run ${run.id} to ${r.out}; on the cluster: cd there and run ./run.sh or sbatch slurm.sbatch (see README.md)`);
    console.log(`the trained run will be ${join(r.out, r.runDir)}: copy it into ${ws.dir('runs')} to open and resume it here`);
    return 0;
  },
};
export default command;
