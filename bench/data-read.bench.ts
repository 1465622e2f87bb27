// Read throughput of a ~1 GB MATLAB v7.3 file (Darcy-like coeff [720, 421, 421] float64), written
// on the fly in the temp folder and deleted afterwards: full read (HDF5 pieces + axis reversal to
// row-major) and batched row reads (hyperslabs, the lazy path), beside h5py reading the same file
// in the same run (plain read, and read + transposition to the same row-major layout) when
// Debian's python3 has h5py. Both read warm from the page cache (the file was just written).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mat73File, writeMat73 } from '../main/data/formats/mat73';
import { ndarray } from '../main/data/ndarray';

const N = Number(process.env.LINO_BENCH_READ_N ?? 720), S = 421;

function pythonTimes(path: string): { plain: number; transposed: number } | null {
  const code = [
    'import sys, time, h5py, numpy as np',
    'f = h5py.File(sys.argv[1], "r"); d = f["coeff"]',
    't = time.perf_counter(); a = d[()]; t1 = time.perf_counter() - t',
    't = time.perf_counter(); b = np.ascontiguousarray(d[()].T); t2 = time.perf_counter() - t',
    'print(t1, t2)',
  ].join('\n');
  const r = spawnSync('/usr/bin/python3', ['-c', code, path], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const [plain, transposed] = r.stdout.trim().split(/\s+/).map(Number);
  return { plain, transposed };
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lino-bench-read-'));
  const path = join(dir, 'darcy_like_v73.mat');
  try {
    const n = N * S * S;
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = (i % 9973) * 0.001;
    let t = performance.now();
    await writeMat73(path, { coeff: ndarray(data, [N, S, S], 'float64') });
    const writeS = (performance.now() - t) / 1000;
    const bytes = statSync(path).size;
    const mb = bytes / 1e6;
    console.log(`file: ${mb.toFixed(0)} MB MAT v7.3, coeff [${N}, ${S}, ${S}] float64 (written by writeMat73 in ${writeS.toFixed(1)} s, ${(mb / writeS).toFixed(0)} MB/s)`);

    const f = await Mat73File.open(path);
    t = performance.now();
    const a = await f.read('coeff');
    const readS = (performance.now() - t) / 1000;
    for (let k = 0; k < 1000; k++) {
      const i = Math.floor(((k * 2654435761) % 4294967296) / 4294967296 * n);
      if ((a.data as Float64Array)[i] !== data[i]) throw new Error(`bench: element ${i} read back as ${(a.data as Float64Array)[i]}, written ${data[i]}`);
    }
    console.log(`full read (row-major result):      ${readS.toFixed(2)} s, ${(mb / readS).toFixed(0)} MB/s`);
    t = performance.now();
    const B = 32;
    for (let s = 0; s < N; s += B) await f.readRows('coeff', s, Math.min(B, N - s));
    const rowsS = (performance.now() - t) / 1000;
    console.log(`row batches of ${B} (hyperslabs):    ${rowsS.toFixed(2)} s, ${(mb / rowsS).toFixed(0)} MB/s`);
    f.close();

    const py = pythonTimes(path);
    if (!py) {
      console.log('h5py reference: skipped (/usr/bin/python3 with h5py not available)');
    } else {
      console.log(`h5py d[()] (HDF5 axis order):       ${py.plain.toFixed(2)} s, ${(mb / py.plain).toFixed(0)} MB/s`);
      console.log(`h5py d[()].T made contiguous:       ${py.transposed.toFixed(2)} s, ${(mb / py.transposed).toFixed(0)} MB/s`);
      console.log(`ratio full read time / h5py (same layout): ${(readS / py.transposed).toFixed(2)}  (vs plain h5py read: ${(readS / py.plain).toFixed(2)}; lower is better)`);
    }
    rmSync(path, { force: true });
    await mat5Section(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** MAT v5 (the hand-written reader) against scipy.io.loadmat, on files scipy writes. */
async function mat5Section(dir: string): Promise<void> {
  const M = 100;
  const write = spawnSync('/usr/bin/python3', ['-c', [
    'import sys, numpy as np, scipy.io',
    `a = (np.arange(${M}*${S}*${S}) % 9973 * 0.001).reshape(${M}, ${S}, ${S})`,
    'scipy.io.savemat(sys.argv[1] + "/raw.mat", {"coeff": a})',
    'scipy.io.savemat(sys.argv[1] + "/z.mat", {"coeff": a}, do_compression=True)',
  ].join('\n'), dir], { encoding: 'utf8' });
  if (write.status !== 0) { console.log('MAT v5 section: skipped (/usr/bin/python3 with scipy not available to write the files)'); return; }
  const { Mat5File } = await import('../main/data/formats/mat5');
  for (const name of ['raw.mat', 'z.mat']) {
    const p = join(dir, name);
    const f = new Mat5File(p);
    const t = performance.now();
    const a = await f.read('coeff');
    const ours = (performance.now() - t) / 1000;
    f.close();
    const mb = a.data.byteLength / 1e6;
    const ref = spawnSync('/usr/bin/python3', ['-c', 'import sys, time, scipy.io\nt = time.perf_counter(); a = scipy.io.loadmat(sys.argv[1])["coeff"]; t1 = time.perf_counter() - t\nt = time.perf_counter(); b = a.copy(order="C"); print(t1, t1 + time.perf_counter() - t)', p], { encoding: 'utf8' });
    const [sp, spC] = ref.stdout.trim().split(/\s+/).map(Number);
    console.log(`MAT v5 ${name === 'raw.mat' ? 'uncompressed' : 'compressed  '} [${M}, ${S}, ${S}] float64 (${mb.toFixed(0)} MB): ours ${ours.toFixed(2)} s (${(mb / ours).toFixed(0)} MB/s, row-major); scipy.loadmat ${sp.toFixed(2)} s (column-major view), + C copy ${spC.toFixed(2)} s; ratio ours / (scipy + C copy) ${(ours / spC).toFixed(2)}`);
  }
}
