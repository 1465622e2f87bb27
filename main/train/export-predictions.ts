// A split's predictions with what they are compared against, for use outside the workbench
// (`lino eval --export`, the app's "Export predictions"): the decoded predictions, the decoded
// reference they were scored against (the same channels or rollout frames) and each row's sample
// index in the dataset. As three .npy files or one MATLAB v7.3 file (variables prediction,
// reference, indices), written into `dir` (overwriting an earlier export of the same name).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeNpy } from '../data/formats/npy';
import { writeMat73 } from '../data/formats/mat73';
import { ndarray } from '../data/ndarray';
import type { TrainSplit } from './data';

export type PredictionsFormat = 'npy' | 'mat';

export interface PredictionsExport {
  /** The predictions' file (the .mat holding all three for 'mat'). */
  predictionsFile: string;
  /** Every file written. */
  files: string[];
}

/**
 * `split` is the evaluated (encoded) split; its y is decoded with `y` (the checkpoint's normalizer,
 * null when none was applied) and cut to the predictions' last axis (a rollout's frames).
 * `sourceIndices`: each row's sample in the dataset (prepared data carry them); rows are numbered
 * 0..n-1 where there are none (synthetic data).
 */
export async function exportPredictions(
  dir: string,
  base: string,
  format: PredictionsFormat,
  split: TrainSplit,
  predictions: { data: Float32Array; shape: number[] },
  y: { mean: number; std: number; eps: number } | null,
  sourceIndices?: ArrayLike<number>,
): Promise<PredictionsExport> {
  mkdirSync(dir, { recursive: true });
  const shape = predictions.shape;
  const n = shape[0]!;
  const cOut = shape[shape.length - 1]!;
  const cy = split.y.shape[split.y.shape.length - 1]!;
  const points = predictions.data.length / (n * cOut);
  const ref = new Float32Array(predictions.data.length);
  const scale = y ? y.std + y.eps : 1;
  const shift = y ? y.mean : 0;
  for (let p = 0; p < n * points; p++) {
    for (let c = 0; c < cOut; c++) ref[p * cOut + c] = split.y.data[p * cy + c]! * scale + shift;
  }
  const indices = sourceIndices && sourceIndices.length === n ? Int32Array.from(sourceIndices) : Int32Array.from({ length: n }, (_, i) => i);
  const vars = {
    prediction: ndarray(predictions.data, shape, 'float32'),
    reference: ndarray(ref, shape, 'float32'),
    indices: ndarray(indices, [n], 'int32'),
  };
  if (format === 'mat') {
    const file = join(dir, `${base}.mat`);
    await writeMat73(file, vars);
    return { predictionsFile: file, files: [file] };
  }
  const files = [join(dir, `${base}.npy`), join(dir, `${base}-reference.npy`), join(dir, `${base}-indices.npy`)];
  writeNpy(files[0]!, vars.prediction);
  writeNpy(files[1]!, vars.reference);
  writeNpy(files[2]!, vars.indices);
  return { predictionsFile: files[0]!, files };
}
