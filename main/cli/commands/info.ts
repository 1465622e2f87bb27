// `lino info`: keys, shapes, the model kind and the configuration inferred from a weights file.
import type { CliCommand } from '../command';
import { parseFlags, requireFlag } from '../args';
import { readSafetensorsFile } from '../../runs/safetensors';
import { formatBackendReport, selectBackend } from '../../ops/backend';
import { isTorchFile, weightsAsFile } from '../../runs/release-checkpoint';
import { readReleaseCheckpointWithDeadline } from '../../runs/release-checkpoint';
import { inferModel } from '../../model/registry';
import { printable as p, printableJson } from '../../util/printable';
import { probeTorch, pythonCommand } from '../../train/torch-probe';
import { readSettings } from '../../workspace/settings';
import { formatTorchReport } from '../../train/torch-report';

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, { weights: { type: 'string' }, json: { type: 'boolean' }, backends: { type: 'boolean' }, backend: { type: 'string' }, env: { type: 'boolean' } });
    if (values.env) {
      // the engine's backends and the Python/PyTorch the 'torch' backend would run (LINO_PYTHON, else python3)
      const [report, torch] = await Promise.all([selectBackend(values.backend), probeTorch(pythonCommand(readSettings().python))]);
      console.log(values.json ? JSON.stringify({ backend: report, torch }, null, 1) : `${formatBackendReport(report)}\n${formatTorchReport(torch)}`);
      return 0;
    }
    if (values.backends) {
      const report = await selectBackend(values.backend);
      console.log(values.json ? JSON.stringify(report, null, 1) : formatBackendReport(report));
      return 0;
    }
    const path = requireFlag(values, 'weights');
    // A .pt decodes as runs.importCheckpoint decodes it: in the checkpoint worker, within its deadline
    // (CHECKPOINT_DEADLINE_MS) and heap limit, so a hostile file ends as an error naming it, not a hang.
    const f = isTorchFile(path) ? weightsAsFile((await readReleaseCheckpointWithDeadline(path)).weights) : readSafetensorsFile(path);
    const { kind, config: cfg } = inferModel(f.tensors, f.metadata, path);
    let params = 0;
    const rows = [...f.tensors].map(([k, t]) => {
      const n = t.shape.reduce((a, b) => a * b, 1);
      params += n;
      return { key: k, dtype: t.dtype, shape: t.shape };
    });
    const { notes, ...config } = cfg;
    if (values.json) {
      console.log(printableJson({ file: path, kind, params, config, notes, metadata: f.metadata, tensors: rows }, 1));
      return 0;
    }
    // Everything printed from the file goes through printable(): its names and metadata are the file author's text.
    console.log(`${p(path)}: ${rows.length} tensors, ${params} parameters`);
    const w = Math.max(...rows.map((r) => p(r.key).length));
    for (const r of rows) console.log(`  ${p(r.key).padEnd(w)}  ${r.dtype}  [${r.shape.join(', ')}]`);
    console.log(`model kind: ${p(kind)}`);
    console.log(`inferred config: ${printableJson(config)}`);
    for (const n of notes) console.log(`note: ${p(n)}`);
    // a checkpoint's own record: model config and normalizers (main/runs/state-dict.ts weightsMetadata)
    for (const [k, v] of Object.entries(f.metadata)) if (k.startsWith('lino.')) console.log(`${p(k)}: ${p(v)}`);
    return 0;
  },
};
export default command;
