// Table export (CSV, booktabs LaTeX) and the byte helpers used to ship exports to the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatNumber, relL2Note, toCsv, toLatex, latexEscape, type TableColumn } from '../../../renderer/src/export/table';
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
  // one column, one count of decimals: the smallest fixed-form number (the std 0.00041) keeps three digits
  assert.match(tex, /lino\\_full, seed "1" & \\textbf\{0\.012345 \$\\pm\$ 0\.000410\} & 123456 \\\\/);
  assert.match(tex, /w\/o scattering \\& 50\\% & 0\.023400 & -- \\\\/);
  assert.match(tex, /tiny\\_x & \$1\.50 \\times 10\^\{-5\}\$ & 7 \\\\/);
  assert.match(tex, /\\bottomrule\n\\end\{tabular\}\n\\end\{table\}\n$/);
  assert.match(tex, /\\caption\{Ablation \(Darcy\) relL2 = \|\|prediction - truth\|\| \/ \|\|truth\|\| per sample\.\}\n\\label\{tab:abl\}/);
  // every row has as many cells as columns
  for (const line of tex.split('\n').filter((l) => l.endsWith('\\\\'))) assert.equal(line.split(' & ').length, 3, line);
  assert.equal(latexEscape('a_b^c~d\\e{f}#$'), 'a\\_b\\textasciicircum{}c\\textasciitilde{}d\\textbackslash{}e\\{f\\}\\#\\$');
  assert.throws(() => toLatex([], []), /at least one column/);
});

test('one number format for CSV and LaTeX: a LaTeX column has one count of decimals (its largest value with the column\'s significant digits); CSV keeps full precision', () => {
  const cols: TableColumn[] = [{ key: 'v', label: 'relL2', align: 'r' }, { key: 'n', label: 'Parameters', align: 'r' }, { key: 't', label: 'Wall (s)', align: 'r', digits: 3 }];
  const data = [{ v: 0.963, n: 1200, t: 3 }, { v: 0.96271, n: 980, t: 25.04 }, { v: 1, n: null, t: 1257.3 }, { v: { mean: 0.5, std: 0.02 }, n: 4, t: 0.5 }];
  const body = toLatex(cols, data).split('\n').filter((l) => l.endsWith('\\\\')).slice(1).map((l) => l.slice(0, -3).split(' & '));
  assert.deepEqual(body.map((r) => r[0]), ['0.9630', '0.9627', '1.0000', '0.5000 $\\pm$ 0.0200'], 'the std 0.02 keeps 3 significant digits; 0.963 and 0.96271 print apart');
  assert.deepEqual(body.map((r) => r[1]), ['1200', '980', '--', '4'], 'a whole-number column stays whole');
  assert.deepEqual(body.map((r) => r[2]), ['3.000', '25.040', '1257.300', '0.500'], 'one count of decimals, enough for 0.5 to keep three digits');
  // 0.01862 beside 0.3635 read as two precisions: one count of decimals, the smallest with 3 digits
  const mixed = toLatex([{ key: 'e', label: 'relL2', align: 'r' }], [{ e: 0.3635 }, { e: 0.018621 }, { e: 0.0042 }]);
  assert.deepEqual(mixed.split('\n').filter((l) => l.endsWith('\\\\')).slice(1).map((l) => l.slice(0, -3)), ['0.36350', '0.01862', '0.00420']);
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

const bodyOf = (tex: string) => tex.split('\n').filter((l) => l.endsWith('\\\\')).slice(1).map((l) => l.slice(0, -3).split(' & '));

test('rows that differ print differently (5.91e-3 vs 5.94e-3 beside 0.36), never under 3 significant digits; exponents too', () => {
  const cols: TableColumn[] = [{ key: 'e', label: 'relL2 (normalized)', align: 'r' }];
  const paper = bodyOf(toLatex(cols, [{ e: 0.3635 }, { e: 5.91e-3 }, { e: 5.94e-3 }])).map((r) => r[0]);
  assert.deepEqual(paper, ['0.36350', '0.00591', '0.00594']);
  // the rows at 4 decimals both read 0.0059; two values 1e-5 apart need one decimal more
  const close = bodyOf(toLatex(cols, [{ e: 0.5 }, { e: 0.123451 }, { e: 0.123462 }])).map((r) => r[0]);
  assert.deepEqual(close, ['0.50000', '0.12345', '0.12346']);
  assert.equal(new Set(close).size, 3);
  // equal values stay equal (the loop only grows while different values collide)
  assert.deepEqual(bodyOf(toLatex(cols, [{ e: 0.25 }, { e: 0.25 }])).map((r) => r[0]), ['0.2500', '0.2500']);
  // exponent form: as many significant digits as tell the rows apart (at least 3, even when a column asks for 2)
  const tiny = bodyOf(toLatex([{ key: 'e', label: 'relL2 (decoded)', digits: 2 }], [{ e: 1.23411e-5 }, { e: 1.23419e-5 }, { e: 3e-5 }])).map((r) => r[0]);
  assert.deepEqual(tiny, ['$1.2341 \\times 10^{-5}$', '$1.2342 \\times 10^{-5}$', '$3.0000 \\times 10^{-5}$']);
  // CSV keeps every digit
  assert.equal(toCsv(cols, [{ e: 5.91e-3 }, { e: 5.94e-3 }]), 'relL2 (normalized)\r\n0.00591\r\n0.00594\r\n');
});

test('a signed column keeps its "+" in LaTeX and CSV (the ablation\'s "vs full")', () => {
  const cols: TableColumn[] = [{ key: 'v', label: 'Variant' }, { key: 'd', label: 'vs full (%, normalized relL2)', align: 'r', digits: 3, signed: true }];
  const rows = [{ v: 'full', d: null }, { v: 'no scattering', d: 12.48 }, { v: 'no refraction', d: -3.1 }, { v: 'same', d: 0 }, { v: 'seeds', d: { mean: 2.5, std: 0.4 } }];
  assert.deepEqual(bodyOf(toLatex(cols, rows)).map((r) => r[1]), ['--', '+12.480', '-3.100', '0.000', '+2.500 $\\pm$ 0.400']);
  assert.deepEqual(toCsv(cols, rows).trimEnd().split('\r\n').slice(1), ['full,,', 'no scattering,+12.48,', 'no refraction,-3.1,', 'same,0,', 'seeds,+2.5,0.4']);
});

test('an exported table\'s caption names the relL2 conventions its columns use', () => {
  const both = toLatex([{ key: 'a', label: 'Best val relL2 (normalized)' }, { key: 'b', label: 'Best val relL2 (decoded)' }], [{ a: 0.1, b: 0.2 }], { caption: 'Ablation.' });
  assert.match(both, /\\caption\{Ablation\. relL2 = \|\|prediction - truth\|\| \/ \|\|truth\|\| per sample; normalized: on the normalized fields the model is trained on; decoded: on the decoded fields, in physical units\.\}/);
  assert.equal(relL2Note([{ key: 'a', label: 'Parameters' }]), null, 'no relL2 column, no note');
  assert.doesNotMatch(toLatex([{ key: 'a', label: 'Parameters' }], [{ a: 1 }], { caption: 'Size' }), /relL2/);
});

test('every relL2 column and heading of the views and reproduction tables names its convention', () => {
  const files = [...walk('renderer/src'), ...walk('main/reproduce')].filter((f) => /\.tsx?$/.test(f));
  const bad: string[] = [];
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(/label: '([^']*relL2[^']*)'/g)) if (!/normalized|decoded/.test(m[1]!)) bad.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(bad, []);
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}
