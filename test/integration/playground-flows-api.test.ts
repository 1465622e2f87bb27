// The Playground on Navier-Stokes and airfoil runs through the service both hosts use and
// the real engine: a w0 drawn with a vortex, its T_in history and T_out frames from the generator's
// own NS solver (a job in its own lane), the rollout predicted as the evaluation rolls out; the 8
// design nodes of an airfoil, its mesh and flow from the generator; the truths equal the
// generators' output for the same parameters, relL2 equals `lino predict` on the saved input
// against the saved truth, and every hostile input is refused naming its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlaygroundFields, PlaygroundPrediction, PlaygroundTruth } from '../../main/api/contract';
import { nsSample } from '../../main/data/generate/navier-stokes';
import { airfoilFromDisplacements } from '../../main/data/generate/airfoil';
import { resolveParams } from '../../main/data/generate/presets';
import type { AirfoilParams, NavierStokesParams } from '../../main/data/generate/presets';
import { engineService } from '../helpers/engine-service';
import { predictSavedAnyKind } from '../helpers/predict-saved-any';
import { standardRun } from '../helpers/standard-runs';

const { service, workspace, shared, settled } = engineService();

const KINDS = ['lino', 'fno', 'deeponet'] as const;
const ns: Record<string, string> = {};
const airfoil: Record<string, string> = {};

// The standard tiny runs (trained once per test invocation, shared with the Playground e2e test).
test('tiny LiNO, FNO and DeepONet runs on a tiny Navier-Stokes set (3 -> 2 frames) and on the tiny airfoil set', { timeout: 300_000 }, async () => {
  for (const kind of KINDS) {
    const r = await shared(standardRun('navier-stokes', kind));
    assert.equal(r.state, 'done', r.reason);
    ns[kind] = r.id;
    const a = await shared(standardRun('airfoil', kind));
    assert.equal(a.state, 'done', a.reason);
    airfoil[kind] = a.id;
  }
});

async function truthOf(id: string, params: Record<string, unknown>): Promise<PlaygroundTruth> {
  const job = (await service.call('playground.solve', { id, ...params } as never)) as { id: string; lane?: string };
  assert.equal(job.lane, 'playground-solve', 'the solver runs in a lane of its own');
  const done = await settled(job.id, 60_000);
  assert.equal(done.state, 'done', done.error);
  return PlaygroundTruth.parse(done.result);
}

function relDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0, den = 0;
  for (let i = 0; i < b.length; i++) { num += (a[i]! - b[i]!) ** 2; den += b[i]! ** 2; }
  return Math.sqrt(num / den);
}

const VORTEX = { x: 0.3, y: 0.65, radius: 0.08, strength: 6 };

test('Navier-Stokes: a drawn w0 with a vortex; the solver\'s history and frames equal the generator\'s trajectory from the same w0', { timeout: 120_000 }, async () => {
  const plain = PlaygroundFields.parse(await service.call('playground.draw', { id: ns.lino!, seed: 4 }));
  assert.deepEqual(plain.grid, [32, 32], 'the run\'s own grid');
  const withVortex = PlaygroundFields.parse(await service.call('playground.draw', { id: ns.lino!, seed: 4, vortices: [VORTEX] }));
  // the vortex adds strength at its centre (x along the first axis), almost nothing far from it
  const at = (f: PlaygroundFields, i: number, j: number) => f.channels[0]![i * 32 + j]!;
  assert.ok(Math.abs(at(withVortex, 10, 21) - at(plain, 10, 21) - 6 * Math.exp(-((10 / 32 - 0.3) ** 2 + (21 / 32 - 0.65) ** 2) / (2 * 0.08 ** 2))) < 1e-9);
  assert.ok(Math.abs(at(withVortex, 26, 4) - at(plain, 26, 4)) < 1e-3);
  // the generator's own sample: its w0 solved by the Playground gives its recorded frames
  const p = { ...(resolveParams('navier-stokes', { preset: 'tiny', samples: 4, frames: 5, tIn: 3, tOut: 2 }) as NavierStokesParams) };
  const g = nsSample(11, 0, p);
  const t = await truthOf(ns.lino!, { input: { grid: [32, 32], channels: [Array.from(g.a)] } });
  assert.match(t.solver, /navier-stokes pseudo-spectral/);
  assert.equal(t.input!.length, 3, 'T_in history frames');
  assert.equal(t.truth.length, 2, 'T_out frames');
  const frame = (k: number) => Array.from({ length: 32 * 32 }, (_, q) => g.u[q * 5 + k]!);
  for (let k = 0; k < 3; k++) assert.ok(relDiff(t.input![k]!, frame(k)) < 1e-4, `history frame ${k}: ${relDiff(t.input![k]!, frame(k))}`);
  for (let k = 0; k < 2; k++) assert.ok(relDiff(t.truth[k]!, frame(3 + k)) < 1e-4, `frame ${3 + k}: ${relDiff(t.truth[k]!, frame(3 + k))}`);
});

// The comparison with lino predict (a CLI process each, ~30 s on a loaded 2-core machine) is made for
// one kind per benchmark: the Playground's rollout and prediction code does not depend on the kind.
test('Navier-Stokes: every kind rolls out the history; relL2 over the rollout equals lino predict rolled out on the saved input (LiNO)', { timeout: 180_000 }, async () => {
  const w0 = PlaygroundFields.parse(await service.call('playground.draw', { id: ns.lino!, seed: 2, vortices: [VORTEX, { x: 0.8, y: 0.2, radius: 0.05, strength: -4 }] }));
  const t = await truthOf(ns.lino!, { input: w0 });
  const input = { grid: t.grid, channels: t.input! };
  const truth = { grid: t.grid, channels: t.truth };
  const shown: Record<string, number> = {};
  for (const kind of KINDS) {
    const r = PlaygroundPrediction.parse(await service.call('playground.predict', { id: ns[kind]!, input, truth }));
    assert.equal(r.benchmark, 'navier-stokes');
    assert.equal(r.prediction.length, 2, `${kind}: one frame per rollout step`);
    assert.ok(r.prediction.every((f) => f.length === 32 * 32 && f.every(Number.isFinite)));
    assert.ok(r.relL2 !== null && r.relL2 > 0 && Number.isFinite(r.relL2), `${kind} relL2 ${r.relL2}`);
    assert.equal(r.steps?.length, 2, 'relL2 per step');
    shown[kind] = r.relL2!;
  }
  for (const kind of ['lino'] as const) {
    const saved = (await service.call('playground.save', { id: ns[kind]!, input, truth, name: `pg-ns-${kind}` })) as { datasetId: string };
    const cli = await predictSavedAnyKind(workspace, ns[kind]!, saved.datasetId);
    assert.equal(cli.frames, 2);
    assert.ok(Math.abs(cli.relL2 - shown[kind]!) <= 1e-5, `${kind}: shown relL2 ${shown[kind]} vs lino predict rolled out ${cli.relL2}`);
  }
});

const DESIGN = [0.03, -0.02, 0.045, 0.01, -0.04, 0.02, 0, -0.035];

test('airfoil: the design nodes\' mesh and Mach equal the generator\'s; every kind predicts on the mesh; relL2 equals lino predict on the saved input (DeepONet)', { timeout: 180_000 }, async () => {
  const t = await truthOf(airfoil.lino!, { design: DESIGN });
  assert.deepEqual(t.grid, [221, 51]);
  const g = airfoilFromDisplacements(DESIGN.slice(0, 4), DESIGN.slice(4), resolveParams('airfoil', { preset: 'tiny' }) as AirfoilParams);
  assert.deepEqual(t.input![0], Array.from(g.X), 'the mesh X');
  assert.deepEqual(t.input![1], Array.from(g.Y), 'the mesh Y');
  assert.deepEqual(t.truth[0], Array.from(g.Q.subarray(4 * 221 * 51)), 'Mach');
  assert.match(t.solver, /panel/);
  const input = { grid: t.grid, channels: t.input! };
  const truth = { grid: t.grid, channels: t.truth };
  for (const kind of KINDS) {
    const r = PlaygroundPrediction.parse(await service.call('playground.predict', { id: airfoil[kind]!, input, truth }));
    assert.equal(r.benchmark, 'airfoil');
    assert.equal(r.prediction[0]!.length, 221 * 51);
    assert.ok(r.relL2 !== null && Number.isFinite(r.relL2), `${kind} relL2 ${r.relL2}`);
    if (kind !== 'deeponet') continue;
    const saved = (await service.call('playground.save', { id: airfoil[kind]!, input, truth, name: `pg-airfoil-${kind}` })) as { datasetId: string };
    const cli = await predictSavedAnyKind(workspace, airfoil[kind]!, saved.datasetId);
    assert.equal(cli.frames, 1);
    assert.ok(Math.abs(cli.relL2 - r.relL2!) <= 1e-5, `${kind}: shown relL2 ${r.relL2} vs lino predict ${cli.relL2}`);
  }
});

type Refusal = [string, () => string, string, Record<string, unknown>, RegExp];
const w = (n = 32, v = 0.5) => Array.from({ length: n * n }, () => v);
const refusals = (): Refusal[] => [
  ['a vortex off the grid', () => ns.lino!, 'playground.draw', { seed: 1, vortices: [{ ...VORTEX, x: 1.5 }] }, /'vortices\.0\.x'.*at most 1/],
  ['a vortex with a NaN position', () => ns.lino!, 'playground.draw', { seed: 1, vortices: [{ ...VORTEX, y: NaN }] }, /'vortices\.0\.y'/],
  ['a vortex of radius 0', () => ns.lino!, 'playground.draw', { seed: 1, vortices: [{ ...VORTEX, radius: 0 }] }, /'vortices\.0\.radius'.*at least 0\.01/],
  ['a vortex too strong', () => ns.lino!, 'playground.draw', { seed: 1, vortices: [{ ...VORTEX, strength: 1e6 }] }, /'vortices\.0\.strength'.*at most 20/],
  ['too many vortices', () => ns.lino!, 'playground.draw', { seed: 1, vortices: Array(9).fill(VORTEX) }, /'vortices'.*at most 8/],
  ['a vortex with an unknown field', () => ns.lino!, 'playground.draw', { seed: 1, vortices: [{ ...VORTEX, path: '/etc' }] }, /'vortices\.0'.*unknown field/],
  ['a Navier-Stokes grid that is not a power of two', () => ns.lino!, 'playground.draw', { seed: 1, resolution: 30 }, /'resolution'.*power-of-two/],
  ['vortices on an airfoil run', () => airfoil.lino!, 'playground.draw', { seed: 1, vortices: [VORTEX] }, /'vortices'.*Navier-Stokes/],
  ['a w0 on a non-power-of-two grid', () => ns.lino!, 'playground.solve', { input: { grid: [30, 30], channels: [w(30)] } }, /'input\.grid'.*power-of-two/],
  ['a w0 beyond the vorticity bound', () => ns.lino!, 'playground.solve', { input: { grid: [32, 32], channels: [[...w().slice(1), 1e4]] } }, /'input\.channels\.0\.1023'.*\|w0\| <= 50/],
  ['a w0 of two channels', () => ns.lino!, 'playground.solve', { input: { grid: [32, 32], channels: [w(), w()] } }, /'input\.channels'.*starts from one/],
  ['a Navier-Stokes solve without input', () => ns.lino!, 'playground.solve', {}, /'input'.*required/],
  ['design nodes for a Navier-Stokes run', () => ns.lino!, 'playground.solve', { input: { grid: [32, 32], channels: [w()] }, design: DESIGN }, /'design'.*airfoil runs/],
  ['a rollout from w0 alone (not the history)', () => ns.lino!, 'playground.predict', { input: { grid: [32, 32], channels: [w()] } }, /'input\.channels'.*1 channels, the run's model takes 3/],
  ['a truth of the wrong frame count', () => ns.lino!, 'playground.predict', { input: { grid: [32, 32], channels: [w(), w(), w()] }, truth: { grid: [32, 32], channels: [w()] } }, /'truth\.channels'.*answers 2/],
  ['an airfoil solve without design', () => airfoil.lino!, 'playground.solve', {}, /'design'/],
  ['seven design nodes', () => airfoil.lino!, 'playground.solve', { design: DESIGN.slice(1) }, /'design'.*exactly 8/],
  ['a node moved beyond the range', () => airfoil.lino!, 'playground.solve', { design: [0, 0, 0, 0.2, 0, 0, 0, 0] }, /'design\.3'.*within \[-0\.05, 0\.05\]/],
  ['a NaN node', () => airfoil.lino!, 'playground.solve', { design: [NaN, 0, 0, 0, 0, 0, 0, 0] }, /'design\.0'/],
  ['an input for an airfoil solve', () => airfoil.lino!, 'playground.solve', { input: { grid: [221, 51], channels: [Array(221 * 51).fill(0)] }, design: DESIGN }, /'input'.*design nodes/],
  ['a mesh of one channel', () => airfoil.lino!, 'playground.predict', { input: { grid: [221, 51], channels: [Array(221 * 51).fill(0)] } }, /'input\.channels'.*takes 2/],
  ['an airfoil draw', () => airfoil.lino!, 'playground.draw', { seed: 1 }, /design nodes.*\[id\]/],
  ['too many values in all', () => ns.lino!, 'playground.predict', { input: { grid: [512, 512], channels: Array.from({ length: 17 }, () => [0]) } }, /'input\.channels'.*at most 4194304 values/],
];

test('hostile Navier-Stokes and airfoil inputs are refused, each naming its field, and the engine keeps answering', { timeout: 60_000 }, async () => {
  const wrong: string[] = [];
  for (const [what, id, method, params, re] of refusals()) {
    const got = await service.call(method as never, { id: id(), ...params } as never).then(() => 'accepted', (e: Error & { details?: { field?: string } }) => `${e.message} [${e.details?.field ?? ''}]`);
    if (!re.test(got)) wrong.push(`${what}: ${got}`);
  }
  assert.deepEqual(wrong, [], 'each refusal names its field');
  const t = Date.now();
  assert.equal(((await service.call('engine.ping', { t })) as { t: number }).t, t);
});
