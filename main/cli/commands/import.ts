// `lino import CHECKPOINT.pt`: a PyTorch checkpoint (the release's best_model.pt / last_model.pt,
// or a bare state_dict) becomes a run of the workspace, listed and explored like any other.
import { readUserText } from '../../util/user-file';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags } from '../args';
import { DataSpec } from '../../data/data-spec';
import { Workspace, defaultWorkspacePath } from '../../workspace/workspace';
import { RunStore } from '../../runs/run-store';
import { importTorchCheckpoint } from '../../train/import-checkpoint';
import { selectBackend } from '../../ops/backend';

/** --data: a JSON spec, a .json file holding one, or the id of a dataset in the workspace. */
export function parseDataFlag(value: string): DataSpec {
  const text = value.trim().startsWith('{') ? value : value.endsWith('.json') && existsSync(value) ? readUserText(value, { what: 'a JSON data spec' }) : null;
  let raw: unknown = { kind: 'dataset', id: value };
  if (text !== null) {
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--data: not valid JSON (${(e as Error).message})`);
    }
  }
  const r = DataSpec.safeParse(raw);
  if (!r.success) throw new UsageError(`--data: field '${r.error.issues[0]!.path.join('.') || '(root)'}': ${r.error.issues[0]!.message}`);
  return r.data;
}

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { data: { type: 'string' }, name: { type: 'string' }, workspace: { type: 'string' }, json: { type: 'boolean' }, backend: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError(`expected one checkpoint file, got ${positionals.length ? positionals.join(' ') : 'none'} (usage: lino import CHECKPOINT.pt)`);
    const file = resolve(positionals[0]!);
    if (!existsSync(file)) throw new Error(`${file}: no such file`);
    const data = values.data ? parseDataFlag(values.data) : undefined;
    // With data the imported weights are evaluated once (the run's metrics record).
    if (data) await selectBackend(values.backend);
    const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
    const store = new RunStore(ws.dir('runs'));
    const { run, notes } = await importTorchCheckpoint(store, file, { ...(data ? { data } : {}), ...(values.name ? { name: values.name } : {}), workspace: ws.path });
    if (values.json) {
      console.log(JSON.stringify({ id: run.id, dir: run.dir, config: run.readConfig(), notes }, null, 1));
      return 0;
    }
    for (const n of notes) console.error(`note: ${n}`);
    console.log(run.id);
    return 0;
  },
};
export default command;
