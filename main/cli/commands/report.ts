// `lino report ID --out FILE`: the offline report of a run, a sweep or a reproduction (ablations
// included) as one self-contained HTML file (main/report/), and its PDF when a Chromium is installed.
import { resolve } from 'node:path';
import type { CliCommand } from '../command';
import { UsageError, parseFlags, requireFlag } from '../args';
import { Workspace, defaultWorkspacePath } from '../../workspace/workspace';
import { writeReport, type ReportKind } from '../../report/report';
import { findChromium, printToPdf } from '../../report/report-pdf';

const KINDS: ReportKind[] = ['run', 'sweep', 'reproduction'];

const command: CliCommand = {
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { out: { type: 'string' }, pdf: { type: 'string' }, kind: { type: 'string' }, workspace: { type: 'string' } });
    const id = positionals[0];
    if (!id) throw new UsageError('missing ID: a run id, a sweep id or a reproduction (try lino report --help)');
    const out = resolve(requireFlag(values, 'out'));
    if (!/\.html?$/i.test(out)) throw new UsageError(`--out: expected an .html file, got '${out}' (the PDF goes to --pdf FILE)`);
    const kind = values.kind as ReportKind | undefined;
    if (kind && !KINDS.includes(kind)) throw new UsageError(`--kind: expected one of ${KINDS.join(', ')}, got '${kind}'`);
    const ws = Workspace.open(resolve(values.workspace ?? defaultWorkspacePath()));
    const r = writeReport(ws.path, id, out, kind);
    console.log(`wrote the ${r.kind} report of ${id} to ${out} (${(r.bytes / 1024).toFixed(0)} KiB, self-contained)`);
    if (values.pdf) {
      const chromium = findChromium();
      if (!chromium) {
        console.error('no PDF: no Chromium found (set CHROMIUM_PATH); open the HTML in a browser and print it to PDF');
        return 1;
      }
      const pdf = resolve(values.pdf);
      await printToPdf(chromium, out, pdf);
      console.log(`printed it to ${pdf}`);
    }
    return 0;
  },
};
export default command;
