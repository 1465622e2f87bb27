// "Published rows" and "Reproduction presets": the paper's numbers appear as rows
// labelled 'reported (paper)', apart from the measured ones, with their convention; each of the six
// presets runs at its tiny size through the engine's runner (real runs in a temporary workspace,
// cpu backend) and writes its table (CSV, LaTeX) and figure data; a cancelled preset stops.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { MEASURED_ROW_LABEL, REPORTED_ROW_LABEL, tableRows } from '../../../main/api/reproduce';
import { toCsv, toLatex } from '../../../main/api/table';
import { PUBLISHED, publishedRows } from '../../../main/api/published';
import { REPRODUCE_PRESETS, presetNamed, armConfig } from '../../../main/reproduce/presets';
import { mainTable, type ArmRun } from '../../../main/reproduce/tables';
import { runPreset, planRuns } from '../../../main/reproduce/run-preset';
import { formatTextTable } from '../../../main/reproduce/text-table';
import { RunStore } from '../../../main/runs/run-store';
import { parseRunConfig } from '../../../main/train/runner';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-reproduce-');
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

const fakeRun = (arm: string, label: string, relL2: number, seed = 42): ArmRun => ({
  arm, label, kind: 'lino', seed, runId: `r-${arm}-${seed}`, epochs: 2, bestEpoch: 2, relL2, relL2Decoded: relL2 / 2, secondsPerEpoch: 1, estimateBytes: 2 ** 20, params: 100,
});

test('published rows: every number of protocol.md is typed with its convention; LiNO rows normalized, FNO-paper baselines decoded', () => {
  assert.equal(publishedRows('burgers-256').length, 11);
  assert.equal(publishedRows('darcy-resolution').length, 8 * 4);
  assert.equal(publishedRows('darcy-ablation').length, 4);
  for (const r of PUBLISHED) {
    if (r.model.startsWith('LiNO')) assert.equal(r.convention, 'normalized', r.model);
    if (r.model === 'FNO') assert.equal(r.convention, 'decoded');
  }
  assert.equal(publishedRows('burgers-256').find((r) => r.model === 'LiNO full')!.relL2, 3.19e-3);
  assert.equal(publishedRows('darcy-resolution').find((r) => r.model === 'LNO' && r.resolution === 421)!.relL2, null);
});

test("reported rows are labelled 'reported (paper)', kept apart from measured rows and after them, in the text, CSV and LaTeX tables", () => {
  const p = presetNamed('burgers')!;
  const t = mainTable(p, 'tiny', [fakeRun('lino-full', 'LiNO full', 0.123), fakeRun('fno', 'FNO', 0.0777)]);
  assert.equal(t.measured.length, 2);
  assert.equal(t.reported.length, 11);
  // no published number leaks into a measured row, and no measured number into a reported one
  for (const r of t.measured) assert.ok(!PUBLISHED.some((q) => q.relL2 === r.relL2 || q.relL2 === r.relL2Decoded));
  const fno = t.reported.find((r) => r.model === 'FNO')!;
  assert.equal(fno.relL2Decoded, 1.49e-2, 'a decoded-convention number sits in the decoded column');
  assert.equal(fno.relL2, undefined);
  assert.match(String(fno.note), /decoded convention/);
  const { columns, rows } = tableRows(t);
  assert.equal(columns[0]!.key, 'source');
  assert.deepEqual(rows.map((r) => r.source), [...Array(2).fill(MEASURED_ROW_LABEL), ...Array(11).fill(REPORTED_ROW_LABEL)]);
  const csv = toCsv(columns, rows).trim().split('\r\n');
  assert.equal(csv.filter((l) => l.startsWith(REPORTED_ROW_LABEL)).length, 11);
  assert.ok(csv.slice(1, 3).every((l) => l.startsWith(MEASURED_ROW_LABEL)));
  assert.equal((toLatex(columns, rows).match(/reported \(paper\) &/g) ?? []).length, 11);
  const text = formatTextTable(t).split('\n');
  const firstReported = text.findIndex((l) => l.startsWith(REPORTED_ROW_LABEL));
  assert.ok(/^-+/.test(text[firstReported - 1]!), 'a rule separates the reported rows');
  assert.ok(text.slice(0, firstReported).every((l) => !l.startsWith(REPORTED_ROW_LABEL)));
  assert.ok(text.some((l) => /relL2 on decoded fields \(FNO paper convention/.test(l)));
});

test('seeds give mean ± std per arm in the measured rows (ablation)', () => {
  const p = presetNamed('darcy-ablation')!;
  const t = mainTable(p, 'tiny', [fakeRun('full', 'LiNO full model', 0.2, 42), fakeRun('full', 'LiNO full model', 0.4, 43)]);
  const c = t.measured[0]!.relL2 as { mean: number; std: number };
  assert.ok(Math.abs(c.mean - 0.3) < 1e-12 && Math.abs(c.std - Math.sqrt(0.02)) < 1e-12, JSON.stringify(c));
  assert.equal(t.reported.length, 4);
});

test('every preset and size makes valid run configurations (a new arm is one entry)', () => {
  assert.deepEqual(REPRODUCE_PRESETS.map((p) => p.number), [1, 2, 3, 4, 5, 6]);
  for (const p of REPRODUCE_PRESETS) for (const size of ['tiny', 'quick', 'paper'] as const) {
    for (const plan of planRuns(p, size, 'x')) {
      const cfg = parseRunConfig(armConfig(p, size, plan.arm, plan.seed, plan.resolution), `${p.name}/${size}`);
      assert.equal(cfg.data.kind, 'generate');
    }
  }
  const p = presetNamed('darcy-ablation')!;
  assert.equal(planRuns(p, 'quick', 'x').length, 4 * 3, '4 variants x 3 seeds');
  assert.equal(planRuns(presetNamed('darcy-resolution')!, 'paper', 'x').length, 2 * 4);
});

const EXPECT: Record<string, { measured: number; tables: number; figures: string[] }> = {
  burgers: { measured: 4, tables: 1, figures: [] },
  'darcy-resolution': { measured: 4, tables: 2, figures: [] },
  'darcy-ablation': { measured: 4, tables: 1, figures: ['ablation-bars'] },
  'darcy-scattering': { measured: 2, tables: 1, figures: [] },
  'navier-stokes': { measured: 2, tables: 1, figures: ['step-error', 'rollout'] },
  airfoil: { measured: 2, tables: 1, figures: ['mesh-field'] },
};

for (const p of REPRODUCE_PRESETS) {
  test(`preset ${p.number} (${p.name}) runs at its tiny size: runs in the workspace, table with reported rows, figure data`, { timeout: 120_000 }, async () => {
    const out = join(ws.path, 'out', p.name);
    let last = 0;
    const r = await runPreset(p, 'tiny', { workspace: ws.path, outDir: out, onProgress: (f) => { assert.ok(f >= last - 1e-9, 'progress never goes back'); last = f; } });
    assert.equal(last, 1);
    const e = EXPECT[p.name]!;
    assert.equal(r.tables.length, e.tables);
    assert.equal(r.tables[0]!.measured.length, e.measured);
    assert.equal(r.tables[0]!.reported.length, p.published ? publishedRows(p.published).length : 0);
    for (const row of r.tables[0]!.measured) assert.ok(Number.isFinite(row.relL2 as number) || typeof row.relL2 === 'object', `${p.name}: measured relL2`);
    assert.deepEqual(r.figures.map((f) => f.kind).sort(), [...e.figures].sort());
    // Transfer rows say how each grid's data were made (tiny Darcy is generated at s = 29; the
    // training grid s = 15 resampled from it, the transfer grid solved at s = 29 by the generator)
    if (p.sizes.tiny.transfer?.length) {
      const origins = r.tables[1]!.measured.map((x) => String(x.origin));
      assert.ok(origins.every((o) => /^(solved at s = 29 by the generator \(darcy 'tiny', generator seed 0; .*\)|resampled from s = 29 \(the generated grid, interpolated\))$/.test(o)), origins.join('; '));
      assert.ok(origins.some((o) => o.startsWith('solved at s = 29')) && origins.some((o) => o.startsWith('resampled')), origins.join('; '));
    }
    const store = new RunStore(join(ws.path, 'runs'));
    for (const run of r.runs) assert.equal(store.open(run.id).readStatus().state, 'done');
    const csv = readFileSync(join(out, `${p.name}-tiny.csv`), 'utf8');
    if (p.published) assert.match(csv, /\r\nreported \(paper\),/);
    assert.ok(existsSync(join(out, `${p.name}-tiny.tex`)));
    for (const f of r.figures) {
      const data = JSON.parse(readFileSync(f.file, 'utf8'));
      assert.equal(data.kind, f.kind);
      if (f.kind === 'mesh-field') {
        const s = data.series[0];
        assert.equal(s.x.length, 221 * 51);
        assert.equal(s.error.length, s.reference.length);
      }
      if (f.kind === 'mesh-field' || f.kind === 'rollout') {
        assert.equal(data.series.length, 2);
        assert.equal(data.series[0].sample, data.series[1].sample, 'every model shows the same sample');
        assert.ok(data.series[1].prediction.length > 0);
      }
      if (f.kind === 'step-error') assert.equal(data.series[0].mean.length, 10);
    }
  });
}

test('a cancelled preset stops between steps and says so', { timeout: 60_000 }, async () => {
  const ctl = new AbortController();
  await assert.rejects(
    runPreset(presetNamed('darcy-ablation')!, 'tiny', { workspace: ws.path, outDir: join(ws.path, 'out', 'cancelled'), signal: ctl.signal, onProgress: (f) => { if (f > 0) ctl.abort(); } }),
    /reproduction cancelled/,
  );
  assert.ok(!existsSync(join(ws.path, 'out', 'cancelled')));
});
