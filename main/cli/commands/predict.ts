// `lino predict`: runs the raw operator on an .npy tensor (already normalized, coordinate channels
// included, float32, channels-last, batch first) and writes the raw projection as .npy.
import type { CliCommand } from '../command';
import { loadOperatorWeights, operatorConfig, readInputF32 } from '../operator-files';
import { UsageError, parseFlags, requireFlag } from '../args';
import { selectBackend } from '../../ops/backend';
import { createModel } from '../../model/registry';
import { writeNpy } from '../../data/formats/npy';
import { ndarray } from '../../data/ndarray';
import { predictBatched } from '../../train/predict-batched';


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
    const { kind, cfg, torch } = await operatorConfig(values.config, weights);
    const report = await selectBackend(values.backend);
    const x = readInputF32(input);
    if (x.shape.length !== cfg.dims + 2 || x.shape[x.shape.length - 1] !== cfg.inChannels) {
      throw new Error(`${input}: shape (${x.shape.join(', ')}), model expects ${cfg.dims === 1 ? `[B, Q, ${cfg.inChannels}]` : `[B, H, W, ${cfg.inChannels}]`}`);
    }
    const model = createModel(kind, cfg);
    try {
      loadOperatorWeights(model, weights, torch);
      const t0 = performance.now();
      const y = await predictBatched(model, x, cfg.outChannels, bs);
      const outShape = y.shape;
      writeNpy(out, ndarray(y.data, outShape, 'float32'));
      console.log(`backend ${report.active}: (${x.shape.join(', ')}) -> (${outShape.join(', ')}) in ${(performance.now() - t0).toFixed(0)} ms, written to ${out}`);
    } finally {
      model.dispose();
    }
    return 0;
  },
};
export default command;
