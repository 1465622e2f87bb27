// The model builder's store logic: validation, the at-least-one-component rule, the config it sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DATA_SHAPES, DEFAULT_DRAFT, MODEL_KIND_OPTIONS, describeDraft, draftDataShape, estimateNote, withDataShape, withDataset, draftGrid, draftToConfig, draftToTrainModel, formatBytes, formatFlops, toggleComponent, trainModelProblems, validateDraft, withKind, type ModelDraft } from '../../../renderer/src/logic/model-draft';
import { MODEL_KINDS, MODEL_KIND_DECLARATIONS, parseParams, TrainConfig } from '../../../main/api/contract';
import { useApp } from '../../../renderer/src/stores/app-store';

test('the default draft is valid and its config passes the contract', () => {
  assert.deepEqual(validateDraft(DEFAULT_DRAFT), {});
  const p = parseParams('model.estimate', { config: draftToConfig(DEFAULT_DRAFT), grid: draftGrid(DEFAULT_DRAFT), batch: DEFAULT_DRAFT.batch, coordinates: true });
  assert.ok(p.config.kind === 'lino', 'a LiNO draft stays a LiNO config');
  assert.deepEqual(p.config.components, ['reflection', 'refraction', 'scattering']);
  assert.deepEqual(p.grid, [64, 64]);
});

test('validation names each bad field with its range', () => {
  const e = validateDraft({ ...DEFAULT_DRAFT, width: 0, depth: 2.5, gridSide: Number.NaN });
  assert.match(e.width!, /Width must be a whole number from 1 to 1024/);
  assert.match(e.depth!, /Depth/);
  assert.match(e.gridSide!, /Grid points per axis/);
  assert.equal(e.batch, undefined);
});

/** The draft's config, which must be LiNO's. */
function linoConfig(d: ModelDraft) {
  const c = draftToConfig(d);
  assert.ok(c.kind === 'lino' || c.kind === undefined);
  return c;
}

test('the last component on cannot be turned off; others toggle', () => {
  let d = toggleComponent(DEFAULT_DRAFT, 'reflection');
  d = toggleComponent(d, 'refraction');
  assert.deepEqual(linoConfig(d).components, ['scattering']);
  assert.equal(toggleComponent(d, 'scattering'), d, 'refused: returns the same draft');
  assert.deepEqual(linoConfig(toggleComponent(d, 'reflection')).components, ['reflection', 'scattering']);
  assert.match(validateDraft({ ...d, components: { reflection: false, refraction: false, scattering: false } }).components!, /at least one/);
  assert.throws(() => parseParams('model.estimate', { config: { ...linoConfig(d), components: [] }, grid: [8, 8] }), /components/);
});

test('formatting of bytes and FLOPs', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.50 KiB');
  assert.equal(formatBytes(5 * 1024 ** 3), '5.00 GiB');
  assert.equal(formatFlops(2.5e9), '2.50 GFLOP');
});

test('store: the chosen config lives in zustand and an estimate answers for the draft it was asked for', async () => {
  const answers: unknown[] = [];
  const api = {
    async call(method: string, params: any) {
      answers.push([method, params]);
      return { params: 42, forwardFlops: 1, trainStepFlops: 3, paramStateBytes: 16, activationBytes: 8, peakBytes: 24, wasmLimitBytes: 4 * 1024 ** 3, exceedsWasm: false, source: 'test', inChannels: 3, sweep: [] };
    },
    onEvent: () => () => {},
  };
  useApp.setState({ api: api as never });
  const draft = { ...DEFAULT_DRAFT, width: 32 };
  useApp.getState().setModelDraft(draft);
  await useApp.getState().estimateModel();
  assert.equal(useApp.getState().modelDraft.width, 32);
  assert.equal(useApp.getState().modelEstimate?.result?.params, 42);
  assert.equal(useApp.getState().modelEstimate?.forDraft, draft);
  assert.deepEqual(answers[0], ['model.estimate', { config: draftToConfig(draft), grid: [64, 64], batch: 4, coordinates: true }]);
  // an invalid draft asks nothing and clears the estimate
  useApp.getState().setModelDraft({ ...draft, width: -1 });
  await useApp.getState().estimateModel();
  assert.equal(answers.length, 1);
  assert.equal(useApp.getState().modelEstimate, null);
});

test("the draft's model block is a valid TrainConfig model for the Training view", () => {
  const d = toggleComponent({ ...DEFAULT_DRAFT, width: 48, scattering: 'full' }, 'refraction');
  const cfg = TrainConfig.parse({ model: draftToTrainModel(d), data: { kind: 'synthetic', grid: [16, 16], train: 4, val: 2 } });
  assert.deepEqual(cfg.model, { kind: 'lino', width: 48, depth: DEFAULT_DRAFT.depth, scattering: 'full', components: ['reflection', 'scattering'] });
});

test('channels are derived from the data choice, not typed; the estimate note carries no source path', () => {
  assert.equal(draftDataShape(DEFAULT_DRAFT).key, 'darcy');
  const ns = withDataShape(DEFAULT_DRAFT, 'navier-stokes');
  assert.deepEqual([ns.dims, ns.inChannels, ns.outChannels, ns.gridSide], [2, 10, 1, 64]);
  assert.equal(draftDataShape(ns).key, 'navier-stokes');
  const b = withDataShape(DEFAULT_DRAFT, 'burgers');
  assert.deepEqual([b.dims, b.inChannels, b.outChannels, b.gridSide], [1, 1, 1, 1024]);
  assert.equal(draftDataShape({ dims: 2, inChannels: 7, outChannels: 3 }).key, 'darcy', 'an old saved draft falls back to its dimension');
  assert.equal(new Set(DATA_SHAPES.map((s) => `${s.dims}:${s.inChannels}:${s.outChannels}`)).size, DATA_SHAPES.length, 'every choice is told apart by its shape');
  const note = estimateNote('main/model/lino/estimate.ts (exact parameter count; FLOPs and memory fitted to tfjs 4.22)');
  assert.equal(note, 'Exact parameter count; FLOPs and memory fitted to tfjs 4.22');
  assert.doesNotMatch(note, /\.ts|main\//);
});

test('the grid follows the data chosen: a benchmark\'s usual grid, a workspace dataset\'s own resolution (not 64 whatever the data)', () => {
  assert.equal(withDataShape(DEFAULT_DRAFT, 'darcy').gridSide, 85);
  assert.equal(withDataShape({ ...DEFAULT_DRAFT, gridSide: 64 }, 'navier-stokes').gridSide, 64);
  const d29 = withDataset({ ...DEFAULT_DRAFT, gridSide: 64 }, { benchmark: 'darcy', grid: [29, 29] })!;
  assert.deepEqual([d29.dims, d29.inChannels, d29.gridSide], [2, 1, 29]);
  const ns16 = withDataset(DEFAULT_DRAFT, { benchmark: 'navier-stokes', grid: [16, 16] })!;
  assert.deepEqual([ns16.inChannels, ns16.gridSide], [10, 16]);
  assert.deepEqual([withDataset(DEFAULT_DRAFT, { benchmark: 'burgers', grid: [128] })!.dims, withDataset(DEFAULT_DRAFT, { benchmark: 'burgers', grid: [128] })!.gridSide], [1, 128]);
  assert.equal(withDataset(DEFAULT_DRAFT, { benchmark: 'airfoil', grid: [221, 51] })!.gridSide, 106, 'a non-square mesh: about as many points');
  assert.equal(withDataset(DEFAULT_DRAFT, { benchmark: 'imported', grid: [32, 32] }), null, 'an imported set of unknown shape is not offered');
  assert.equal(withDataset(DEFAULT_DRAFT, { benchmark: 'darcy' }), null);
});

test('FNO in the model builder: its published sizes per data, its config passes the contract and a run config', () => {
  const f = withKind(DEFAULT_DRAFT, 'fno');
  assert.deepEqual([f.kind, f.width, f.modes, f.depth], ['fno', 32, 12, 4], 'Darcy-shaped default draft: modes 12, width 32');
  const b = withDataShape(f, 'burgers');
  assert.deepEqual([b.width, b.modes, b.dims], [64, 16, 1], 'Burgers: modes 16, width 64');
  assert.deepEqual(validateDraft({ ...f, components: { reflection: false, refraction: false, scattering: false } }), {}, 'components are LiNO\'s');
  assert.match(validateDraft({ ...f, modes: 0 }).modes!, /Modes must be a whole number/);
  const p = parseParams('model.estimate', { config: draftToConfig(f), grid: draftGrid(f), batch: 2 });
  assert.equal(p.config.kind, 'fno');
  const run = TrainConfig.parse({ data: { kind: 'synthetic', grid: [16, 16], train: 4, val: 2 }, model: draftToTrainModel(b) });
  assert.deepEqual([run.model.kind, run.model.width, run.model.depth, run.model.modes], ['fno', 64, 4, 16]);
  assert.equal(withKind(f, 'lino').kind, 'lino');
  assert.equal(draftToConfig(withKind(f, 'lino')).kind, 'lino');
});

test('DeepONet in the model builder: the paper\'s sizes, its declared fields and limits, the grid in its config', () => {
  const d = withKind(withDataShape(DEFAULT_DRAFT, 'burgers'), 'deeponet');
  assert.deepEqual([d.kind, d.width, d.depth, d.basis], ['deeponet', 128, 8, 128]);
  assert.match(validateDraft({ ...d, basis: 0 }).basis!, /Basis must be a whole number from 1 to 1024/);
  assert.equal(validateDraft({ ...DEFAULT_DRAFT, basis: 0 }).basis, undefined, 'basis is DeepONet\'s only');
  const c = draftToConfig(d);
  assert.deepEqual(c, { kind: 'deeponet', dims: 1, inChannels: 1, outChannels: 1, grid: [1024], width: 128, layers: 8, basis: 128 });
  assert.equal(parseParams('model.estimate', { config: c, grid: draftGrid(d), batch: 2 }).config.kind, 'deeponet');
  const run = TrainConfig.parse({ data: { kind: 'synthetic', grid: [16], train: 4, val: 2 }, model: draftToTrainModel({ ...d, basis: 16 }) });
  assert.deepEqual([run.model.kind, run.model.width, run.model.depth, run.model.basis], ['deeponet', 128, 8, 16]);
  assert.equal(describeDraft(d), 'DeepONet, width 128, 8 layers each for branch and trunk, basis p = 128');
  assert.equal(withKind(d, 'fno').modes, 16, 'FNO takes its Burgers sizes');
});

test('the Model view offers exactly the declared kinds, each with its field descriptors', () => {
  assert.deepEqual(MODEL_KIND_OPTIONS.map((o) => o.kind), [...MODEL_KINDS]);
  for (const decl of MODEL_KIND_DECLARATIONS) {
    assert.ok(decl.fields.length > 0, decl.kind);
    for (const f of decl.fields) assert.ok(f.field in DEFAULT_DRAFT && f.min <= f.max && f.label, `${decl.kind}.${f.field}`);
  }
});

test('a draft with M = 0 and L = -3 cannot train, and says why in the Model view\'s words; estimate-only fields do not block', () => {
  const bad = { ...DEFAULT_DRAFT, width: 0, depth: -3 };
  const p = trainModelProblems(bad);
  assert.equal(p.length, 2, p.join(' | '));
  assert.ok(p.every((m) => /must be a whole number from/.test(m)), p.join(' | '));
  assert.deepEqual(trainModelProblems(DEFAULT_DRAFT), []);
  assert.deepEqual(trainModelProblems({ ...DEFAULT_DRAFT, gridSide: 1 }), [], 'the grid is the data\'s, not the draft\'s');
  assert.match(trainModelProblems({ ...DEFAULT_DRAFT, components: { reflection: false, refraction: false, scattering: false } }).join(), /at least one/);
});
