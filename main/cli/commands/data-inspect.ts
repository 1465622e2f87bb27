// `lino data inspect FILE`: the format detected and every variable (name, shape, dtype, size)
// before anything is loaded; a stored dataset folder prints its manifest summary.
import { readUserText } from '../../util/user-file';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags } from '../args';
import { openDataFile } from '../../data/formats/index';
import type { DatasetManifest } from '../../data/dataset';

function human(bytes: number): string {
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes, i = 0;
  while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
  return `${i === 0 ? v : v.toFixed(1)} ${u[i]}`;
}

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } });
    const path = positionals[0];
    if (!path) throw new UsageError('missing FILE');
    if (existsSync(join(path, 'manifest.json'))) {
      const m: DatasetManifest = JSON.parse(readUserText(join(path, 'manifest.json'), { what: 'a dataset manifest' }));
      if (values.json) { console.log(JSON.stringify(m, null, 2)); return 0; }
      console.log(`${path}: stored dataset ${m.id} (${m.benchmark})`);
      console.log(`  source: ${m.source.kind === 'file' ? m.source.path : m.source.kind}`);
      console.log(`  grid ${m.grid.join('x')}, train/val/test ${m.counts.train}/${m.counts.val}/${m.counts.test}`);
      console.log(`  x channels: ${m.xChannels.join(', ')}; y channels: ${m.yChannels.join(', ')}`);
      console.log(`  normalizer: x mean ${m.normalization.x.mean.toPrecision(6)} std ${m.normalization.x.std.toPrecision(6)}, y mean ${m.normalization.y.mean.toPrecision(6)} std ${m.normalization.y.std.toPrecision(6)}`);
      for (const w of m.warnings) console.log(`  warning: ${w}`);
      return 0;
    }
    const f = await openDataFile(path);
    try {
      const vars = f.variables();
      if (values.json) {
        console.log(JSON.stringify({ path, format: f.format, variables: vars }, null, 2));
        return 0;
      }
      console.log(`${path}: ${f.format}, ${vars.length} variable${vars.length === 1 ? '' : 's'}`);
      const w = Math.max(4, ...vars.map((v) => v.name.length));
      console.log(`  ${'name'.padEnd(w)}  ${'shape'.padEnd(22)} ${'dtype'.padEnd(8)} ${'size'.padStart(10)}  note`);
      for (const v of vars) {
        const note = v.unsupported ? `not loadable: ${v.unsupported}` : v.note ?? '';
        console.log(`  ${v.name.padEnd(w)}  ${`[${v.shape.join(', ')}]`.padEnd(22)} ${(v.unsupported ? '-' : v.dtype).padEnd(8)} ${(v.unsupported ? '-' : human(v.bytes)).padStart(10)}  ${note}`);
      }
      return 0;
    } finally {
      f.close();
    }
  },
};
export default command;
