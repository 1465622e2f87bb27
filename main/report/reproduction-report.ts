// A reproduction's (or an ablation's: the darcy-ablation preset is Table 3) offline report: the
// preset's tables as the Reproduce view shows them (measured and the paper's rows, their notes),
// each run's best epoch in both relL2 conventions, and each arm's validation curves, read back from
// the workspace as readback.ts does (so a reproduction reports the same after a restart).
import { basename } from 'node:path';
import { readReproductions } from '../reproduce/readback';
import { tableRows, type ReproduceResult } from '../api/reproduce';
import { RunStore } from '../runs/run-store';
import type { TableColumn, TableRow } from '../api/table';
import { figuresHtml, tableHtml, esc, type Report } from './report-page';
import { runCurves } from './run-report';
import { lineChartSvg } from './svg-chart';

/** The id a reproduction is reported by: its output folder's name (reproduce-<preset>-<size>[-runN]). */
export const reproductionId = (r: ReproduceResult) => basename(r.outDir);

/** The stored reproductions of the workspace by id. */
export function findReproduction(workspace: string, id: string): ReproduceResult | null {
  return readReproductions(workspace).results.find((r) => reproductionId(r) === id || `${r.preset}-${r.size}` === id) ?? null;
}

export function reproductionReport(workspace: string, r: ReproduceResult): Report {
  const store = new RunStore(`${workspace}/runs`);
  const runs = r.runs.map((x) => {
    try {
      return { ...x, epochs: runCurves(store.open(x.id)).epochs };
    } catch {
      return { ...x, epochs: [] }; // deleted since: readback notes it under the table
    }
  });
  const runCols: TableColumn[] = [
    { key: 'arm', label: 'arm' }, { key: 'seed', label: 'seed', align: 'r' }, { key: 'run', label: 'run' }, { key: 'epoch', label: 'best epoch', align: 'r' },
    { key: 'n', label: 'val relL2 (normalized)', align: 'r' }, { key: 'd', label: 'val relL2 (decoded)', align: 'r' },
    { key: 'tn', label: 'test relL2 (normalized)', align: 'r' }, { key: 'td', label: 'test relL2 (decoded)', align: 'r' },
  ];
  const runRows: TableRow[] = runs.map((x) => {
    const b = x.epochs.reduce<(typeof x.epochs)[number] | null>((m, e) => (m === null || e.val.relL2 < m.val.relL2 ? e : m), null);
    return { arm: x.arm, seed: x.seed, run: x.id, epoch: b?.epoch ?? null, n: b?.val.relL2 ?? null, d: b?.val.relL2Decoded ?? null, tn: b?.test?.relL2 ?? null, td: b?.test?.relL2Decoded ?? null };
  });
  const arms = [...new Set(runs.map((x) => x.arm))];
  const tables = r.tables.map((t) => {
    const { columns, rows } = tableRows(t);
    return `<h3>${esc(t.title)}</h3>${tableHtml(columns, rows)}${t.notes.map((n) => `<p class="muted">${esc(n)}</p>`).join('')}`;
  });
  return {
    kind: 'reproduction',
    title: `Reproduction ${r.preset} (${r.size})`,
    facts: [['reproduction id', reproductionId(r)], ['preset', r.preset], ['size', r.size], ['runs', String(r.runs.length)], ['wall time', `${r.seconds.toFixed(1)} s`], ['files written (in its output folder)', r.files.map((f) => basename(f)).join(', ')]],
    sections: [
      { heading: 'Tables', html: tables.join('') || '<p class="muted">No table.</p>' },
      { heading: 'Runs: best epoch in both relL2 conventions', html: tableHtml(runCols, runRows) },
      {
        heading: 'Validation curves per arm',
        html: figuresHtml(arms.map((arm) => lineChartSvg({
          title: `${arm}: val relL2 per epoch (normalized)`, xLabel: 'epoch', yLabel: 'val relL2', logY: true, dots: true,
          series: runs.filter((x) => x.arm === arm).map((x) => ({ name: `seed ${x.seed}${x.resolution ? `, s = ${x.resolution}` : ''}`, points: x.epochs.map((e) => [e.epoch, e.val.relL2] as [number, number]) })),
        }))),
      },
    ],
  };
}
