// The Geo-FNO airfoil set: three .npy files in one folder, NACA_Cylinder_X and _Y [N, 221, 51]
// (mesh coordinates on the C-grid) and NACA_Cylinder_Q [N, 5, 221, 51] (flow variables; the Mach
// number is channel 4). Exposed as variables X, Y, Q and the derived `mach` [N, 221, 51].
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { NdArray } from '../ndarray';
import { ndarray } from '../ndarray';
import { allocTyped } from './bytes';
import { DataError } from './errors';
import { NpyFile } from './npy';
import type { DataFile, FormatMatch, VariableInfo } from './types';

export const MACH_CHANNEL = 4;

export class AirfoilFiles implements DataFile {
  readonly format = 'geofno-airfoil' as const;
  readonly path: string;
  readonly x: NpyFile;
  readonly y: NpyFile;
  readonly q: NpyFile;

  constructor(dir: string) {
    this.path = dir;
    const opened: NpyFile[] = [];
    try {
      this.x = new NpyFile(join(dir, 'NACA_Cylinder_X.npy'), 'X'); opened.push(this.x);
      this.y = new NpyFile(join(dir, 'NACA_Cylinder_Y.npy'), 'Y'); opened.push(this.y);
      this.q = new NpyFile(join(dir, 'NACA_Cylinder_Q.npy'), 'Q'); opened.push(this.q);
      const xs = this.x.header.shape, ys = this.y.header.shape, qs = this.q.header.shape;
      if (xs.length !== 3) throw new DataError(this.x.path, 'X', `shape [${xs.join(', ')}]`, '[N, 221, 51]');
      if (ys.join() !== xs.join()) throw new DataError(this.y.path, 'Y', `shape [${ys.join(', ')}] differs from X [${xs.join(', ')}]`, 'the same shape as NACA_Cylinder_X');
      if (qs.length !== 4 || qs[0] !== xs[0] || qs[2] !== xs[1] || qs[3] !== xs[2] || qs[1] <= MACH_CHANNEL) {
        throw new DataError(this.q.path, 'Q', `shape [${qs.join(', ')}] does not match X [${xs.join(', ')}]`, `[${xs[0]}, 5, ${xs[1]}, ${xs[2]}] with Mach in channel ${MACH_CHANNEL}`);
      }
    } catch (err) {
      for (const f of opened) f.close();
      throw err;
    }
  }

  variables(): VariableInfo[] {
    const [x, y, q] = [this.x.variables()[0], this.y.variables()[0], this.q.variables()[0]];
    const [N, H, W] = x.shape;
    return [x, y, q, { name: 'mach', shape: [N, H, W], dtype: q.dtype, bytes: (q.bytes / q.shape[1]), note: `channel ${MACH_CHANNEL} of Q` }];
  }

  private file(name: string): NpyFile {
    if (name === 'X') return this.x;
    if (name === 'Y') return this.y;
    if (name === 'Q') return this.q;
    throw new DataError(this.path, name, 'no such variable', "'X', 'Y', 'Q' or 'mach'");
  }

  async read(name: string): Promise<NdArray> {
    const N = this.x.header.shape[0];
    return this.readRows(name, 0, N);
  }

  async readRows(name: string, start: number, count: number): Promise<NdArray> {
    if (name !== 'mach') return this.file(name).readRows(name, start, count);
    const q = await this.q.readRows('Q', start, count);
    const [, C, H, W] = q.shape;
    const plane = H * W;
    const out = allocTyped(q.dtype, count * plane);
    for (let n = 0; n < count; n++) (out as Float64Array).set((q.data as Float64Array).subarray((n * C + MACH_CHANNEL) * plane, (n * C + MACH_CHANNEL + 1) * plane), n * plane);
    return ndarray(out, [count, H, W], q.dtype);
  }

  close(): void { this.x.close(); this.y.close(); this.q.close(); }
}

export const AIRFOIL_FILES = ['NACA_Cylinder_X.npy', 'NACA_Cylinder_Y.npy', 'NACA_Cylinder_Q.npy'];

/** The one format that is a folder: Geo-FNO's three NACA_Cylinder_*.npy files side by side. */
export const airfoilFolderFormat = {
  name: 'geofno-airfoil' as const,
  matchFolder(path: string): FormatMatch {
    const missing = AIRFOIL_FILES.filter((f) => { try { return !statSync(join(path, f)).isFile(); } catch { return true; } });
    if (missing.length === 0) return { format: 'geofno-airfoil' };
    throw new DataError(path, '', `folder is not a Geo-FNO airfoil set: missing ${missing.join(', ')}`, 'NACA_Cylinder_X.npy, _Y.npy and _Q.npy');
  },
  open: (path: string): DataFile => new AirfoilFiles(path),
};
