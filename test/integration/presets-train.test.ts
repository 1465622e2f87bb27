// Every preset of every benchmark can be used. The tiny presets go the whole app
// path: datasets.generate and train.start of one epoch on the stored dataset, through the service
// both hosts use and the real engine process. The quick and paper presets (minutes to hours) are
// checked without generating them: their resolved parameters, the shapes the generator would write,
// and that the import's window and resizing accept those shapes (frames >= T_in + T_out, strides).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobSummary } from '../../main/api/contract';
import { PRESETS, resolveParams, type GeneratorParams } from '../../main/data/generate/index';
import { SAMPLERS } from '../../main/data/generate/samplers';
import { strideOf } from '../../main/data/generate/darcy';
import { releaseOptions } from '../../main/data/pipeline';
import { windowStarts } from '../../main/data/stages/ns-windows';
import { pipelineOptions, generatedWindow } from '../../main/train/data-source';
import type { BenchmarkName, PresetName } from '../../main/data/generate/types';
import { engineService } from '../helpers/engine-service';

const { service, settled } = engineService();
const BENCHMARKS = Object.keys(PRESETS) as BenchmarkName[];
const fully: string[] = [];
const contractOnly: string[] = [];

/** What the import of this preset's output needs, checked on the parameters and shapes alone. */
async function checkContract(b: BenchmarkName, preset: PresetName): Promise<void> {
  const p: GeneratorParams = resolveParams(b, { preset });
  const shapes = (await SAMPLERS[b]()).shapes(p);
  switch (p.benchmark) {
    case 'navier-stokes': {
      assert.deepEqual(shapes, { a: [p.resolution, p.resolution], u: [p.resolution, p.resolution, p.frames] });
      assert.ok(p.frames >= p.tIn + p.tOut, `${b}/${preset}: ${p.frames} frames < T_in + T_out = ${p.tIn + p.tOut}`);
      // the window import and training will use: the preset's own, and it fits the frames
      const o = pipelineOptions({ kind: 'generate', benchmark: b, preset, nsNormalizer: 'separate' }, p.samples, generatedWindow({ params: p }));
      assert.deepEqual([o.ns!.tIn, o.ns!.tOut], [p.tIn, p.tOut]);
      assert.ok(windowStarts(p.frames, o.ns!, false, b).length >= 1);
      assert.ok(p.solveResolution % p.resolution === 0, 'frames stride the solve grid');
      break;
    }
    case 'darcy': {
      assert.deepEqual(shapes, { coeff: [p.resolution, p.resolution], sol: [p.resolution, p.resolution] });
      strideOf(p.solveResolution, p.resolution); // throws if the stored grid is not a stride of the solve grid
      const r = releaseOptions(b, p.samples).resolution as number;
      if (preset === 'paper') assert.ok((p.resolution - 1) % (r - 1) === 0, `the release's ${r} strides the ${p.resolution} grid`);
      break;
    }
    case 'burgers':
      assert.deepEqual(shapes, { a: [p.resolution], u: [p.resolution] });
      assert.ok(p.solveResolution % p.resolution === 0);
      break;
    case 'airfoil':
      assert.deepEqual(Object.keys(shapes).sort(), ['NACA_Cylinder_Q', 'NACA_Cylinder_X', 'NACA_Cylinder_Y']);
      break;
  }
  const split = releaseOptions(b, p.samples).split as { train: number; val: number };
  assert.ok(split.train >= 1 && split.val >= 1 && split.train + split.val <= p.samples, `${b}/${preset}: split ${split.train}/${split.val} of ${p.samples}`);
}

for (const b of BENCHMARKS) {
  test(`${b}: tiny generates through datasets.generate and trains one epoch through train.start`, { timeout: 180_000 }, async () => {
    await checkContract(b, 'tiny');
    const gen = (await service.call('datasets.generate', { benchmark: b, preset: 'tiny' })) as JobSummary;
    const g = await settled(gen.id, 120_000);
    assert.equal(g.state, 'done', g.error);
    const id = (g.result as { id: string }).id;
    const started = (await service.call('train.start', {
      config: { name: `${b}-tiny`, model: { width: 4, depth: 1 }, data: { kind: 'dataset', id }, epochs: 1, batchSize: 2, microBatch: 1 },
    })) as { runId: string; job: JobSummary };
    const t = await settled(started.job.id, 150_000);
    assert.equal(t.state, 'done', t.error);
    const m = (await service.call('runs.metrics', { id: started.runId, type: 'epoch' })) as { records: { val: { relL2: number } }[] };
    assert.equal(m.records.length, 1);
    assert.ok(Number.isFinite(m.records[0]!.val.relL2));
    fully.push(`${b}/tiny`);
  });
  for (const preset of ['quick', 'paper'] as const) {
    test(`${b}: ${preset} preset parameters fit the import's and training's shape contract (not generated)`, async () => {
      await checkContract(b, preset);
      contractOnly.push(`${b}/${preset}`);
    });
  }
}

test('report: which presets were generated and trained, which only checked', () => {
  console.log(`fully generated and trained one epoch: ${fully.join(', ') || 'none'}`);
  console.log(`parameters and shape contract only (not generated): ${contractOnly.join(', ') || 'none'}`);
  assert.equal(fully.length + contractOnly.length, BENCHMARKS.length * 3);
});
