// .npz reader (numpy.savez stored, numpy.savez_compressed deflated; zip64 as numpy writes it).
// The zip directory is parsed here so members can be listed and stored members read by offset
// without loading the archive; fflate does the inflating.
import { Inflate, inflateSync } from 'fflate';
import type { NdArray } from '../ndarray';
import { ndarray } from '../ndarray';
import { RandomAccessFile, checkedSize, startsWith } from './bytes';
import { DataError, asDataError } from './errors';
import { decodeNpy, parseNpyHeader, readRowsAt, type NpyHeader } from './npy';
import { DTYPE_BYTES, type DataFile, type DataFormat, type VariableInfo } from './types';

interface Member {
  name: string;       // variable name (member name without .npy)
  method: number;     // 0 stored, 8 deflated
  crc: number;
  csize: number;
  usize: number;
  dataStart: number;  // offset of the member's (compressed) bytes
  header: NpyHeader;
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

export function crc32(b: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Deflate cannot expand more than ~1032:1; anything claiming more is corrupt. */
const MAX_RATIO = 1032;

export class NpzFile implements DataFile {
  readonly format = 'npz' as const;
  readonly path: string;
  private raf: RandomAccessFile;
  private members = new Map<string, Member>();
  private cache: { name: string; arr: NdArray } | null = null;

  constructor(path: string) {
    this.path = path;
    this.raf = new RandomAccessFile(path);
    try { this.parseDirectory(); } catch (err) { this.raf.close(); throw err; }
  }

  private parseDirectory(): void {
    const { raf, path } = this;
    const tailLen = Math.min(raf.size, 65557);
    const tail = raf.read(raf.size - tailLen, tailLen, 'end of central directory');
    const dv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) if (dv.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
    if (eocd < 0) throw new DataError(path, 'zip directory', 'no end-of-central-directory record (truncated or not a zip)');
    let count = dv.getUint16(eocd + 10, true);
    let cdSize = dv.getUint32(eocd + 12, true);
    let cdOff = dv.getUint32(eocd + 16, true);
    if (count === 0xffff || cdSize === 0xffffffff || cdOff === 0xffffffff) {
      const loc = eocd - 20;
      if (loc < 0 || dv.getUint32(loc, true) !== 0x07064b50) throw new DataError(path, 'zip directory', 'zip64 locator missing');
      const recOff = Number(dv.getBigUint64(loc + 8, true));
      const rec = raf.read(recOff, 56, 'zip64 directory');
      const rv = new DataView(rec.buffer);
      if (rv.getUint32(0, true) !== 0x06064b50) throw new DataError(path, 'zip64 directory', 'bad signature');
      count = Number(rv.getBigUint64(32, true));
      cdSize = Number(rv.getBigUint64(40, true));
      cdOff = Number(rv.getBigUint64(48, true));
    }
    if (cdOff + cdSize > raf.size || count > cdSize / 46) throw new DataError(path, 'zip directory', `directory (${count} entries, ${cdSize} bytes at ${cdOff}) runs past the end of the file`);
    const cd = raf.read(cdOff, cdSize, 'zip directory');
    const cv = new DataView(cd.buffer);
    let p = 0;
    for (let e = 0; e < count; e++) {
      if (p + 46 > cd.length || cv.getUint32(p, true) !== 0x02014b50) throw new DataError(path, 'zip directory', `entry ${e} is corrupt`);
      const flags = cv.getUint16(p + 8, true);
      const method = cv.getUint16(p + 10, true);
      const crc = cv.getUint32(p + 16, true);
      let csize = cv.getUint32(p + 20, true);
      let usize = cv.getUint32(p + 24, true);
      const nlen = cv.getUint16(p + 28, true), xlen = cv.getUint16(p + 30, true), clen = cv.getUint16(p + 32, true);
      let lho = cv.getUint32(p + 42, true);
      if (p + 46 + nlen + xlen + clen > cd.length) throw new DataError(path, 'zip directory', `entry ${e} runs past the directory`);
      const fname = new TextDecoder().decode(cd.subarray(p + 46, p + 46 + nlen));
      // zip64 extra field: 64-bit values for each 32-bit field saturated at 0xffffffff
      for (let x = p + 46 + nlen; x + 4 <= p + 46 + nlen + xlen;) {
        const id = cv.getUint16(x, true), sz = cv.getUint16(x + 2, true);
        if (id === 0x0001) {
          let q = x + 4;
          const next = () => { if (q + 8 > x + 4 + sz) throw new DataError(path, fname, 'short zip64 field'); const v = Number(cv.getBigUint64(q, true)); q += 8; return v; };
          if (usize === 0xffffffff) usize = next();
          if (csize === 0xffffffff) csize = next();
          if (lho === 0xffffffff) lho = next();
        }
        x += 4 + sz;
      }
      p += 46 + nlen + xlen + clen;
      if (flags & 1) throw new DataError(path, fname, 'encrypted zip members are not supported');
      if (!fname.endsWith('.npy')) continue;
      if (method !== 0 && method !== 8) throw new DataError(path, fname, `compression method ${method} is not supported`, 'stored (0) or deflated (8)');
      const lh = raf.read(lho, 30, `${fname} local header`);
      const lv = new DataView(lh.buffer);
      if (lv.getUint32(0, true) !== 0x04034b50) throw new DataError(path, fname, 'bad local header signature');
      const dataStart = lho + 30 + lv.getUint16(26, true) + lv.getUint16(28, true);
      if (dataStart + csize > raf.size) throw new DataError(path, fname, `member of ${csize} bytes at ${dataStart} runs past the end of the file (${raf.size} bytes)`);
      if (method === 0 && csize !== usize) throw new DataError(path, fname, `stored member sizes disagree (${csize} vs ${usize})`);
      if (method === 8 && usize > csize * MAX_RATIO + 1024) throw new DataError(path, fname, `claims ${usize} bytes from ${csize} compressed (corrupt)`);
      const name = fname.slice(0, -4);
      const head = method === 0 ? raf.read(dataStart, Math.min(csize, 65536 + 12), fname) : this.inflateHead(dataStart, csize, fname);
      const header = parseNpyHeader(head, usize, path, name);
      if (header.dataOffset + checkedSize(path, name, header.shape) * DTYPE_BYTES[header.dtype] !== usize) {
        throw new DataError(path, name, `array header (shape [${header.shape.join(', ')}], ${header.descr}) disagrees with the member size ${usize}`);
      }
      this.members.set(name, { name, method, crc, csize, usize, dataStart, header });
    }
  }

  /** Inflates just enough of a deflated member to parse its .npy header. */
  private inflateHead(start: number, csize: number, field: string): Uint8Array {
    const chunks: Uint8Array[] = [];
    let got = 0;
    const inf = new Inflate((chunk) => { chunks.push(chunk); got += chunk.length; });
    try {
      for (let off = 0; off < csize && got < 4096; off += 1024) {
        const len = Math.min(1024, csize - off);
        inf.push(this.raf.read(start + off, len, field), off + len >= csize);
      }
    } catch (err) {
      throw asDataError(err, this.path, field, 'corrupt deflate stream');
    }
    const out = new Uint8Array(got);
    let o = 0;
    for (const c of chunks) { out.set(c, o); o += c.length; }
    return out;
  }

  variables(): VariableInfo[] {
    return [...this.members.values()].map((m) => ({
      name: m.name, shape: [...m.header.shape], dtype: m.header.dtype,
      bytes: checkedSize(this.path, m.name, m.header.shape) * DTYPE_BYTES[m.header.dtype],
      note: `${m.header.descr}${m.header.fortranOrder ? ', Fortran order' : ''}, ${m.method === 8 ? 'deflated' : 'stored'}`,
    }));
  }

  private member(name: string): Member {
    const m = this.members.get(name);
    if (!m) throw new DataError(this.path, name, 'no such array in the archive', [...this.members.keys()].map((k) => `'${k}'`).join(', ') || 'at least one .npy member');
    return m;
  }

  async read(name: string): Promise<NdArray> {
    const m = this.member(name);
    if (this.cache?.name === name) return this.cache.arr;
    const comp = this.raf.read(m.dataStart, m.csize, name);
    let raw: Uint8Array;
    if (m.method === 0) raw = comp;
    else {
      try { raw = inflateSync(comp, { out: new Uint8Array(m.usize) }); } catch (err) { throw asDataError(err, this.path, name, 'corrupt deflate stream'); }
      if (raw.length !== m.usize) throw new DataError(this.path, name, `inflated to ${raw.length} bytes, the directory says ${m.usize}`);
    }
    if (crc32(raw) !== m.crc) throw new DataError(this.path, name, 'CRC mismatch (corrupt member)');
    const arr = decodeNpy(raw, this.path, name);
    this.cache = { name, arr };
    return arr;
  }

  async readRows(name: string, start: number, count: number): Promise<NdArray> {
    const m = this.member(name);
    const h = m.header;
    if (h.shape.length === 0) throw new DataError(this.path, name, 'a 0-d array has no rows');
    if (m.method === 0) {
      // stored members are plain .npy bytes inside the archive: read the rows by offset
      const data = readRowsAt(this.raf, name, m.dataStart + h.dataOffset, h.shape, h.dtype, h.bigEndian, h.fortranOrder, start, count);
      return ndarray(data, [count, ...h.shape.slice(1)], h.dtype);
    }
    const all = await this.read(name);
    const N = h.shape[0];
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count) || start < 0 || count < 0 || start + count > N) throw new DataError(this.path, name, `rows ${start}..${start + count} out of range`, `0..${N}`);
    const rest = all.data.length / Math.max(1, N);
    return ndarray(all.data.slice(start * rest, (start + count) * rest), [count, ...h.shape.slice(1)], h.dtype);
  }

  close(): void { this.raf.close(); this.cache = null; }
}

/** torch.save writes `<prefix>/data.pkl` as the zip's first entry (name at byte 30 of its local header). */
function isTorchSave(head: Uint8Array): boolean {
  if (head.length < 30) return false;
  const n = head[26]! | (head[27]! << 8);
  const name = new TextDecoder('latin1').decode(head.subarray(30, Math.min(30 + n, head.length)));
  return /^[^/]+\/data\.pkl$/.test(name);
}

/** A zip (local header or an empty archive's end record); a torch.save zip is refused by name. */
export const npzFormat: DataFormat = {
  name: 'npz',
  match(head, file) {
    const zip = startsWith(head, [0x50, 0x4b, 0x03, 0x04]);
    if (zip && isTorchSave(head)) {
      throw new DataError(file, 'header', 'a PyTorch checkpoint (torch.save zip), not a data file', 'a data file; import checkpoints as runs with `lino import` or the Runs view');
    }
    return zip || startsWith(head, [0x50, 0x4b, 0x05, 0x06]) ? { format: 'npz' } : null;
  },
  open: (path) => new NpzFile(path),
};
