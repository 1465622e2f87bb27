// `lino info`: keys, shapes and the configuration inferred from a LiNO weights file.
import type { CliCommand } from '../lino';
import { parseFlags, requireFlag } from '../args';
import { readSafetensorsFile, type SafetensorsFile } from '../../runs/safetensors';
import { COMPONENTS } from '../../model/lino/config';
import { formatBackendReport, selectBackend } from '../../ops/backend';

export interface InferredConfig {
  dims?: 1 | 2;
  inChannels: number;
  outChannels: number;
  width: number;
  depth: number;
  scattering?: 'efficient' | 'full';
  components: string[];
  notes: string[];
}

/** Reads the architecture back from the release's key names and shapes. */
export function inferLinoConfig(f: SafetensorsFile, source = 'weights'): InferredConfig {
  const shape = (k: string) => f.tensors.get(k)?.shape;
  const lift = shape('lifting.linear.weight');
  const proj = shape('projection.linear.weight');
  if (!lift || !proj) throw new Error(`${source}: no 'lifting.linear.weight'/'projection.linear.weight': not a LiNO state dict`);
  const blocks = new Set<number>();
  for (const k of f.tensors.keys()) {
    const m = /^blocks\.(\d+)\./.exec(k);
    if (m) blocks.add(Number(m[1]));
  }
  const components = COMPONENTS.filter((c) => [...f.tensors.keys()].some((k) => k.startsWith(`blocks.0.${c}.`)));
  const notes: string[] = [];
  let scattering: 'efficient' | 'full' | undefined;
  let dims: 1 | 2 | undefined;
  if (f.tensors.has('blocks.0.scattering.log_tau')) scattering = 'full';
  if (f.tensors.has('blocks.0.scattering.local_gate')) scattering = 'efficient';
  const conv = shape('blocks.0.scattering.local_conv.weight');
  if (conv) dims = conv.length === 3 ? 1 : 2;
  if (!dims) notes.push('dims is not determined by these weights (only efficient scattering has dimension-specific parameters)');
  if (!scattering) notes.push('scattering kind does not matter: the scattering branch is disabled');
  return { ...(dims ? { dims } : {}), inChannels: lift[1]!, outChannels: proj[0]!, width: lift[0]!, depth: blocks.size, ...(scattering ? { scattering } : {}), components, notes };
}

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, { weights: { type: 'string' }, json: { type: 'boolean' }, backends: { type: 'boolean' }, backend: { type: 'string' } });
    if (values.backends) {
      const report = await selectBackend(values.backend);
      console.log(values.json ? JSON.stringify(report, null, 1) : formatBackendReport(report));
      return 0;
    }
    const path = requireFlag(values, 'weights');
    const f = readSafetensorsFile(path);
    const cfg = inferLinoConfig(f, path);
    let params = 0;
    const rows = [...f.tensors].map(([k, t]) => {
      const n = t.shape.reduce((a, b) => a * b, 1);
      params += n;
      return { key: k, dtype: t.dtype, shape: t.shape };
    });
    const { notes, ...config } = cfg;
    if (values.json) {
      console.log(JSON.stringify({ file: path, params, config, notes, metadata: f.metadata, tensors: rows }, null, 1));
      return 0;
    }
    console.log(`${path}: ${rows.length} tensors, ${params} parameters`);
    const w = Math.max(...rows.map((r) => r.key.length));
    for (const r of rows) console.log(`  ${r.key.padEnd(w)}  ${r.dtype}  [${r.shape.join(', ')}]`);
    console.log(`inferred config: ${JSON.stringify(config)}`);
    for (const n of notes) console.log(`note: ${n}`);
    // a checkpoint's own record: model config and normalizers (main/runs/safetensors.ts weightsMetadata)
    for (const [k, v] of Object.entries(f.metadata)) if (k.startsWith('lino.')) console.log(`${k}: ${v}`);
    return 0;
  },
};
export default command;
