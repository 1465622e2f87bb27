// `lino predict`: runs the raw operator on an .npy tensor (already normalized, coordinate channels
// included, float32, channels-last, batch first) and writes the raw projection as .npy.
import { readUserFile, readUserText } from '../../util/user-file';
import * as tf from '../../ops/tf';
import type { CliCommand } from '../lino';
import { UsageError, parseFlags, requireFlag } from '../args';
import { selectBackend } from '../../ops/backend';
import { createModel, parseModelFile } from '../../model/registry';
import type { NeuralOperator } from '../../model/types';
import { loadStateDict, loadWeights } from '../../runs/state-dict';
import { isTorchFile, readReleaseCheckpoint, weightsAsFile } from '../../runs/release-checkpoint';
import { decodeNpy, writeNpy } from '../../data/formats/npy';
import { ndarray } from '../../data/ndarray';
import { errorMessage } from '../../util/error-message';

/** The operator's input: float32 (float64 accepted and rounded), any layout numpy writes. */
export function readInputF32(path: string): { shape: number[]; data: Float32Array } {
  const a = decodeNpy(readUserFile(path, { what: 'a .npy array' }), path, 'array');
  if (a.dtype !== 'float32' && a.dtype !== 'float64') throw new Error(`${path}: field 'dtype' is ${a.dtype}, expected float32`);
  return { shape: [...a.shape], data: a.data instanceof Float32Array ? a.data : Float32Array.from(a.data as Float64Array) };
}

/**
 * The model config and, for a .pt, the checkpoint read once: --config, or (a .pt that fixes dims)
 * the checkpoint itself (a .pt is LiNO). Shared by predict and lightmaps.
 */
export function operatorConfig(config: string | undefined, weights: string) {
  const torch = isTorchFile(weights) ? readReleaseCheckpoint(weights) : null;
  const cfgPath = torch && !config ? weights : requireFlag({ config }, 'config');
  let raw: unknown;
  if (cfgPath === weights && torch) {
    if (!torch.dims) throw new Error(`${weights}: the checkpoint does not fix dims (${torch.model.scattering} scattering); pass --config model.json`);
    raw = { dims: torch.dims, inChannels: torch.inChannels, outChannels: torch.outChannels, ...torch.model };
  } else {
    try {
      raw = JSON.parse(readUserText(cfgPath, { what: 'a JSON model config' }));
    } catch (e) {
      throw new Error(`${cfgPath}: ${errorMessage(e)}`);
    }
  }
  const parsed = parseModelFile(raw, cfgPath);
  return { kind: parsed.kind, cfg: parsed.config, torch };
}

/** Loads the weights file (safetensors or .pt, read by operatorConfig) into the model. */
export function loadOperatorWeights(model: NeuralOperator, weights: string, torch: ReturnType<typeof operatorConfig>['torch']): void {
  if (torch) loadStateDict(model, weightsAsFile(torch.weights), weights);
  else loadWeights(model, weights);
}

const command: CliCommand = {
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' }, weights: { type: 'string' }, input: { type: 'string' }, out: { type: 'string' },
      backend: { type: 'string' }, 'batch-size': { type: 'string' },
    });
    const weights = requireFlag(values, 'weights');
    const input = requireFlag(values, 'input');
    const out = requireFlag(values, 'out');
    const bs = Number(values['batch-size'] ?? 8);
    if (!Number.isInteger(bs) || bs < 1) throw new UsageError(`--batch-size must be a positive integer, got '${values['batch-size']}'`);
    const { kind, cfg, torch } = operatorConfig(values.config, weights);
    const report = await selectBackend(values.backend);
    const x = readInputF32(input);
    if (x.shape.length !== cfg.dims + 2 || x.shape[x.shape.length - 1] !== cfg.inChannels) {
      throw new Error(`${input}: shape (${x.shape.join(', ')}), model expects ${cfg.dims === 1 ? `[B, Q, ${cfg.inChannels}]` : `[B, H, W, ${cfg.inChannels}]`}`);
    }
    const model = createModel(kind, cfg);
    try {
      loadOperatorWeights(model, weights, torch);
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
      writeNpy(out, ndarray(y, outShape, 'float32'));
      console.log(`backend ${report.active}: (${x.shape.join(', ')}) -> (${outShape.join(', ')}) in ${(performance.now() - t0).toFixed(0)} ms, written to ${out}`);
    } finally {
      model.dispose();
    }
    return 0;
  },
};
export default command;
