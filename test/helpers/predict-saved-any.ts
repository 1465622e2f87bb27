// `lino predict` on a saved Playground input of any model kind (model.json names the run's kind):
// one run of the command for an operator run; for a Navier-Stokes run, rolled out by hand, T_out runs
// each fed the last input's history without its oldest frame, the previous output (raw, normalized,
// as the evaluation's rollout feeds it back) and the coordinates. The outputs are decoded and scored
// against the saved truth over every frame and channel, as the Playground's relL2 is. The command
// runs in this process (the CLI's own main, as test/unit/cli does): a process per rollout frame
// would add nothing that predict-saved.ts and the CLI tests, which start `lino` itself, do not check.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetStore } from '../../main/data/dataset-store';
import { readInputF32 } from '../../main/cli/operator-files';
import { writeNpy } from '../../main/data/formats/npy';
import { ndarray } from '../../main/data/ndarray';
import { RunStore } from '../../main/runs/run-store';
import { weightsPath } from '../../main/runs/checkpoint';
import { parseRunConfig } from '../../main/train/runner';
import { loadTrainData } from '../../main/train/data-source';
import { modelConfigFor } from '../../main/train/trainer';
import { main as lino } from '../../main/cli/lino';

/** `frames`: the rollout's steps (1 for an operator run). */
export async function predictSavedAnyKind(workspace: string, runId: string, datasetId: string): Promise<{ relL2: number; frames: number }> {
  const dir = join(workspace, 'datasets', datasetId);
  const run = new RunStore(join(workspace, 'runs')).open(runId);
  const cfg = parseRunConfig(run.readConfig(), run.configPath);
  const tmp = join(dir, '..');
  writeFileSync(join(tmp, 'model.json'), JSON.stringify({ kind: cfg.model.kind, ...modelConfigFor(cfg, await loadTrainData(cfg.data, { workspace })) }));
  const m = new DatasetStore(workspace).manifest(datasetId);
  const ns = (m.parameters as { ns?: { tIn: number; tOut: number } }).ns;
  let x = readInputF32(join(dir, 'val_x.npy'));
  const C = x.shape[x.shape.length - 1]!;
  // an operator run: one step giving every target channel at once
  const tIn = ns?.tIn ?? 0, tOut = ns?.tOut ?? 1, O = ns ? 1 : m.yChannels.length;
  const P = x.data.length / C;
  const out: Float32Array[] = [];
  for (let k = 0; k < tOut; k++) {
    writeNpy(join(tmp, 'x.npy'), ndarray(x.data, x.shape, 'float32'));
    const status = await lino(['predict', '--config', join(tmp, 'model.json'), '--weights', weightsPath(run.dir, 'best')!, '--input', join(tmp, 'x.npy'), '--out', join(tmp, 'y.npy'), '--backend', 'cpu']);
    assert.equal(status, 0, `lino predict, rollout step ${k + 1}`);
    const y = readInputF32(join(tmp, 'y.npy')).data as Float32Array;
    assert.equal(y.length, P * O, 'one frame per step');
    out.push(Float32Array.from(y));
    if (!ns) break;
    const next = new Float32Array(x.data.length);
    for (let p = 0; p < P; p++) {
      for (let c = 0; c < tIn - 1; c++) next[p * C + c] = x.data[p * C + c + 1]!;
      next[p * C + tIn - 1] = y[p]!;
      for (let c = tIn; c < C; c++) next[p * C + c] = x.data[p * C + c]!;
    }
    x = { data: next, shape: x.shape };
  }
  const ref = readInputF32(join(dir, 'val_y.npy')).data;
  const k = m.normalization.y.std + m.normalization.eps, mu = m.normalization.y.mean;
  let num = 0, den = 0;
  // the outputs as [P, frames or channels], as the saved truth is laid out
  const pred = ns ? Float32Array.from({ length: P * tOut }, (_, q) => out[q % tOut]![Math.floor(q / tOut)]!) : out[0]!;
  for (let q = 0; q < ref.length; q++) {
    const truth = ref[q]! * k + mu;
    num += (pred[q]! * k + mu - truth) ** 2;
    den += truth * truth;
  }
  return { relL2: Math.sqrt(num) / (Math.sqrt(den) + 1e-12), frames: tOut };
}
