// Table export (CSV, booktabs LaTeX) and the byte helpers used to ship exports to the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber, toCsv, toLatex, latexEscape, type TableColumn } from '../../../renderer/src/export/table';
import { bytesToBase64, dataUrlToBytes, exportFileName, utf8Bytes } from '../../../renderer/src/export/bytes';

const columns: TableColumn[] = [
  { key: 'name', label: 'Run' },
  { key: 'err', label: 'relL2 (test)', align: 'r', digits: 3 },
  { key: 'params', label: '# params', align: 'r' },
];
const rows = [
  { name: 'lino_full, seed "1"', err: { mean: 0.012345, std: 0.00041 }, params: 123456 },
  { name: 'w/o scattering & 50%', err: 0.0234, params: null },
];

test('CSV: header, quoting of commas and quotes, mean ± std split into two columns', () => {
  const csv = toCsv(columns, rows);
  const lines = csv.trimEnd().split('\r\n');
  assert.equal(lines[0], 'Run,relL2 (test) mean,relL2 (test) std,# params');
  assert.equal(lines[1], '"lino_full, seed ""1""",0.012345,0.00041,123456');
  assert.equal(lines[2], 'w/o scattering & 50%,0.0234,,');
  assert.ok(csv.endsWith('\r\n'));
});

test('LaTeX: booktabs rules, escaped specials, mean $\\pm$ std, bold best, exponents in math mode', () => {
  const tex = toLatex(columns, [...rows, { name: 'tiny_x', err: 1.5e-5, params: 7 }], { caption: 'Ablation (Darcy)', label: 'tab:abl', bold: { err: 0 } });
  assert.match(tex, /\\begin\{tabular\}\{lrr\}/);
  assert.match(tex, /\\toprule\nRun & relL2 \(test\) & \\# params \\\\\n\\midrule/);
  // one column, one count of decimals: the smallest fixed-form number (the std 0.00041) keeps two digits
  assert.match(tex, /lino\\_full, seed "1" & \\textbf\{0\.01235 \$\\pm\$ 0\.00041\} & 123456 \\\\/);
  assert.match(tex, /w\/o scattering \\& 50\\% & 0\.02340 & -- \\\\/);
  assert.match(tex, /tiny\\_x & \$1\.50 \\times 10\^\{-5\}\$ & 7 \\\\/);
  assert.match(tex, /\\bottomrule\n\\end\{tabular\}\n\\end\{table\}\n$/);
  assert.match(tex, /\\caption\{Ablation \(Darcy\)\}\n\\label\{tab:abl\}/);
  // every row has as many cells as columns
  for (const line of tex.split('\n').filter((l) => l.endsWith('\\\\'))) assert.equal(line.split(' & ').length, 3, line);
  assert.equal(latexEscape('a_b^c~d\\e{f}#$'), 'a\\_b\\textasciicircum{}c\\textasciitilde{}d\\textbackslash{}e\\{f\\}\\#\\$');
  assert.throws(() => toLatex([], []), /at least one column/);
});

test('one number format for CSV and LaTeX: a LaTeX column has one count of decimals (its largest value with the column\'s significant digits); CSV keeps full precision', () => {
  const cols: TableColumn[] = [{ key: 'v', label: 'relL2', align: 'r' }, { key: 'n', label: 'Parameters', align: 'r' }, { key: 't', label: 'Wall (s)', align: 'r', digits: 3 }];
  const data = [{ v: 0.963, n: 1200, t: 3 }, { v: 0.96271, n: 980, t: 25.04 }, { v: 1, n: null, t: 1257.3 }, { v: { mean: 0.5, std: 0.02 }, n: 4, t: 0.5 }];
  const body = toLatex(cols, data).split('\n').filter((l) => l.endsWith('\\\\')).slice(1).map((l) => l.slice(0, -3).split(' & '));
  assert.deepEqual(body.map((r) => r[0]), ['0.963', '0.963', '1.000', '0.500 $\\pm$ 0.020'], 'the largest relL2 (1) with 4 significant digits sets 3 decimals');
  assert.deepEqual(body.map((r) => r[1]), ['1200', '980', '--', '4'], 'a whole-number column stays whole');
  assert.deepEqual(body.map((r) => r[2]), ['3.00', '25.04', '1257.30', '0.50'], 'one count of decimals, enough for 0.5 to keep two digits');
  // The case: 0.01862 beside 0.3635 read as two precisions; now both have 4 decimals.
  const mixed = toLatex([{ key: 'e', label: 'relL2', align: 'r' }], [{ e: 0.3635 }, { e: 0.018621 }, { e: 0.0042 }]);
  assert.deepEqual(mixed.split('\n').filter((l) => l.endsWith('\\\\')).slice(1).map((l) => l.slice(0, -3)), ['0.3635', '0.0186', '0.0042']);
  assert.equal(formatNumber(0.963, 4), '0.9630');
  assert.equal(formatNumber(2e-5, 3), '2.00e-5');
  assert.equal(formatNumber(0.1 + 0.2, 17), '0.30000000000000004', 'CSV: the exact value');
  assert.equal(toCsv(cols, data).split('\r\n')[1], '0.963,,1200,3', 'mean ± std columns split in two');
});

test('base64 matches Node for every length remainder; data URLs decode (base64 and percent-encoded)', () => {
  for (const n of [0, 1, 2, 3, 4, 5, 255, 1000]) {
    const b = new Uint8Array(n).map((_, i) => (i * 37 + 11) & 255);
    assert.equal(bytesToBase64(b), Buffer.from(b).toString('base64'), `length ${n}`);
  }
  const png = dataUrlToBytes('data:image/png;base64,' + Buffer.from([137, 80, 78, 71]).toString('base64'));
  assert.equal(png.mime, 'image/png');
  assert.deepEqual([...png.bytes], [137, 80, 78, 71]);
  const svg = dataUrlToBytes('data:image/svg+xml,' + encodeURIComponent('<svg><text>Epoch ü</text></svg>'));
  assert.equal(new TextDecoder().decode(svg.bytes), '<svg><text>Epoch ü</text></svg>');
  assert.deepEqual(utf8Bytes('ü'), new Uint8Array([0xc3, 0xbc]));
  assert.throws(() => dataUrlToBytes('http://x'), /not a data: URL/);
});

test('export file names are slugs with a timestamp, never paths', () => {
  const n = exportFileName('Memory per step / grid: ../etc', 'svg', new Date('2026-01-02T03:04:05.678Z'));
  assert.equal(n, 'memory-per-step-grid-etc-20260102T030405Z.svg');
  assert.equal(exportFileName('***', '.pdf', new Date(0)), 'export-19700101T000000Z.pdf');
});
