// `lino predict`: runs the raw operator on an .npy tensor (already normalized, coordinate channels
// included, float32, channels-last, batch first) and writes the raw projection as .npy.
import { readFileSync, writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import type { CliCommand } from '../lino';
import { parseFlags, requireFlag } from '../args';
import { selectBackend } from '../../ops/backend';
import { parseLinoConfig } from '../../model/lino/config';
import { LinoOperator } from '../../model/lino/operator';
import { loadWeights } from '../../runs/safetensors';

// Minimal .npy (format 1.0-3.0) support, local to this command until main/data/formats/npy.ts lands.
export interface NpyF32 { shape: number[]; data: Float32Array }

export function readNpyF32(buf: Uint8Array, source: string): NpyF32 {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (buf.length < 10 || !magic.every((b, i) => buf[i] === b)) throw new Error(`${source}: not an .npy file (bad magic)`);
  const major = buf[6]!;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const hlen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const hstart = major === 1 ? 10 : 12;
  if (hstart + hlen > buf.length) throw new Error(`${source}: header length ${hlen} exceeds the file`);
  const header = new TextDecoder().decode(buf.subarray(hstart, hstart + hlen));
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeStr = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || !fortran || shapeStr === undefined) throw new Error(`${source}: malformed .npy header ${header.trim()}`);
  if (fortran === 'True') throw new Error(`${source}: field 'fortran_order' is True, expected C order`);
  const shape = shapeStr.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const n = shape.reduce((a, b) => a * b, 1);
  const off = hstart + hlen;
  const sizes: Record<string, number> = { '<f4': 4, '<f8': 8 };
  const size = sizes[descr];
  if (!size) throw new Error(`${source}: field 'descr' is '${descr}', expected '<f4' (float32) or '<f8'`);
  if (buf.length - off !== n * size) throw new Error(`${source}: data is ${buf.length - off} bytes, shape (${shape.join(', ')}) of ${descr} needs ${n * size}`);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = size === 4 ? dv.getFloat32(off + 4 * i, true) : dv.getFloat64(off + 8 * i, true);
  return { shape, data };
}

export function writeNpyF32(shape: readonly number[], data: Float32Array): Uint8Array {
  const shapeStr = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shapeStr}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + 4 * data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  const dv = new DataView(out.buffer);
  dv.setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  for (let i = 0; i < data.length; i++) dv.setFloat32(10 + header.length + 4 * i, data[i]!, true);
  return out;
}

const command: CliCommand = {
  summary: 'run a LiNO operator on an .npy input and write the raw output',
  usage: `lino predict --config model.json --weights w.safetensors --input x.npy --out y.npy [--backend NAME] [--batch-size N]

  model.json  {"dims": 1|2, "inChannels": n, "outChannels": n, "width": M, "depth": L,
               "scattering": "efficient"|"full"|"standard", "components": ["reflection","refraction","scattering"]}
  x.npy       float32, channels-last, batch first: [B, Q, C_in] or [B, H, W, C_in], already normalized,
              coordinate channels included (exactly what the operator takes)
  y.npy       float32 [B, ..., C_out], the raw projection (not de-normalized)
  --backend   tensorflow-gpu | tensorflow | wasm | cpu (default: first that works, in that order)
  --batch-size  samples per forward pass (default 8) to bound memory`,
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' }, weights: { type: 'string' }, input: { type: 'string' }, out: { type: 'string' },
      backend: { type: 'string' }, 'batch-size': { type: 'string' },
    });
    const cfgPath = requireFlag(values, 'config');
    const weights = requireFlag(values, 'weights');
    const input = requireFlag(values, 'input');
    const out = requireFlag(values, 'out');
    const bs = Number(values['batch-size'] ?? 8);
    if (!Number.isInteger(bs) || bs < 1) throw new Error(`--batch-size must be a positive integer, got '${values['batch-size']}'`);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(cfgPath, 'utf8'));
    } catch (e) {
      throw new Error(`${cfgPath}: ${(e as Error).message}`);
    }
    const cfg = parseLinoConfig(raw, cfgPath);
    const report = await selectBackend(values.backend);
    const x = readNpyF32(new Uint8Array(readFileSync(input)), input);
    if (x.shape.length !== cfg.dims + 2 || x.shape[x.shape.length - 1] !== cfg.inChannels) {
      throw new Error(`${input}: shape (${x.shape.join(', ')}), model expects ${cfg.dims === 1 ? `[B, Q, ${cfg.inChannels}]` : `[B, H, W, ${cfg.inChannels}]`}`);
    }
    const model = new LinoOperator(cfg);
    try {
      loadWeights(model, weights);
      const t0 = performance.now();
      const B = x.shape[0]!;
      const per = x.data.length / B;
      const outShape = [...x.shape.slice(0, -1), cfg.outChannels];
      const y = new Float32Array(outShape.reduce((a, b) => a * b, 1));
      const perOut = y.length / B;
      for (let s = 0; s < B; s += bs) {
        const n = Math.min(bs, B - s);
        const yb = tf.tidy(() => model.forward(tf.tensor(x.data.subarray(s * per, (s + n) * per), [n, ...x.shape.slice(1)])).y);
        y.set(await yb.data() as Float32Array, s * perOut);
        yb.dispose();
      }
      writeFileSync(out, writeNpyF32(outShape, y));
      console.log(`backend ${report.active}: (${x.shape.join(', ')}) -> (${outShape.join(', ')}) in ${(performance.now() - t0).toFixed(0)} ms, written to ${out}`);
    } finally {
      model.dispose();
    }
    return 0;
  },
};
export default command;
