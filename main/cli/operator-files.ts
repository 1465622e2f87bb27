// The files `lino predict` and `lino lightmaps` read: an operator's input array, its model config
// and its weights (safetensors or a release .pt).
import { readUserFile, readUserText } from '../util/user-file';
import { requireFlag } from './args';
import { parseModelFile } from '../model/registry';
import type { NeuralOperator } from '../model/types';
import { loadStateDict, loadWeights } from '../runs/state-dict';
import { isTorchFile, weightsAsFile } from '../runs/release-checkpoint';
import { readReleaseCheckpointWithDeadline } from '../runs/release-checkpoint';
import { decodeNpy } from '../data/formats/npy';
import { errorMessage } from '../util/error-message';

/** The operator's input: float32 (float64 accepted and rounded), any layout numpy writes. */
export function readInputF32(path: string): { shape: number[]; data: Float32Array } {
  const a = decodeNpy(readUserFile(path, { what: 'a .npy array' }), path, 'array');
  if (a.dtype !== 'float32' && a.dtype !== 'float64') throw new Error(`${path}: field 'dtype' is ${a.dtype}, expected float32`);
  return { shape: [...a.shape], data: a.data instanceof Float32Array ? a.data : Float32Array.from(a.data as Float64Array) };
}

/**
 * The model config and, for a .pt, the checkpoint read once: --config, or (a .pt that fixes dims)
 * the checkpoint itself (a .pt is LiNO). Shared by predict and lightmaps. A .pt decodes in the
 * checkpoint worker within its deadline, as runs.importCheckpoint and lino info decode it.
 */
export async function operatorConfig(config: string | undefined, weights: string) {
  const torch = isTorchFile(weights) ? await readReleaseCheckpointWithDeadline(weights) : null;
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
export function loadOperatorWeights(model: NeuralOperator, weights: string, torch: Awaited<ReturnType<typeof operatorConfig>>['torch']): void {
  if (torch) loadStateDict(model, weightsAsFile(torch.weights), weights);
  else loadWeights(model, weights);
}
