// A preset as `lino reproduce --list` and the app's Reproduce view show it: its sizes with what
// each trains and the estimated wall time.
import type { ReproducePresetInfo } from '../api/reproduce';
import { PRESET_SIZES, type ReproducePreset } from './presets';

export function presetInfo(p: ReproducePreset): ReproducePresetInfo {
  return {
    name: p.name,
    number: p.number,
    title: p.title,
    paper: p.paper,
    benchmark: p.benchmark,
    arms: p.arms.map((a) => a.label),
    figures: [...p.figures],
    sizes: PRESET_SIZES.map((size) => {
      const s = p.sizes[size];
      const d = s.data;
      const data = [`${p.benchmark} ${d.preset}`, d.samples ? `${d.samples} samples` : '', d.generateResolution ? `generated at ${d.generateResolution}` : '', d.resolution ? `trained at ${d.resolution}` : '']
        .filter(Boolean).join(', ');
      const res = s.resolutions ? `; resolutions ${s.resolutions.join(', ')}` : '';
      const tr = s.transfer ? `; transfer to ${s.transfer.join(', ')}` : '';
      return { size, estimateSeconds: s.estimateSeconds, summary: `${data}${res}${tr}; width ${s.width}, depth ${s.depth}; ${s.epochs} epochs, batch ${s.batchSize}; ${s.seeds} seed${s.seeds > 1 ? 's' : ''} per arm` };
    }),
  };
}
