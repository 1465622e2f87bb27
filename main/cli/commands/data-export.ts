// `lino data export DATASET --format npy|mat73 --out DIR`: writes a stored dataset for the PyTorch
// release / FNO scripts (see main/data/export.ts for the layouts). Same code as the UI's export.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags, requireFlag } from '../args';
import { DatasetStore } from '../../data/dataset-store';
import { prepareOutputFolder } from '../../util/output-folder';
import { exportDataset, type ExportFormat, type ExportLayout } from '../../data/export';

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      format: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, layout: { type: 'string' }, workspace: { type: 'string' },
    });
    const ref = positionals[0];
    if (!ref) throw new UsageError('missing DATASET');
    const format = requireFlag(values, 'format') as ExportFormat;
    const out = requireFlag(values, 'out');
    const layout = (values.layout ?? 'raw') as ExportLayout;
    const outDir = prepareOutputFolder(out, { force: values.force });
    let store: DatasetStore, id: string;
    if (existsSync(join(ref, 'manifest.json'))) {
      const dir = resolve(ref);
      store = DatasetStore.atFolder(dirname(dir));
      id = basename(dir);
    } else {
      store = new DatasetStore(values.workspace ?? process.cwd());
      id = ref;
      if (!store.has(id)) throw new Error(`no dataset '${id}' in ${store.root}`);
    }
    const ds = await store.open(id);
    const t0 = Date.now();
    const files = await exportDataset(ds, format, outDir, layout, (done, total) => {
      if (process.stderr.isTTY) process.stderr.write(`\r  writing ${done}/${total}`);
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.log(`exported ${ds.manifest.id} (${layout}, ${format}) in ${((Date.now() - t0) / 1000).toFixed(1)} s:`);
    for (const f of files) console.log(`  ${f}`);
    return 0;
  },
};
export default command;
