// The sweep's search: the sweep file's checks, the grid, TPE against random search on a toy
// objective (Optuna's published behaviour: TPE finds lower values than random with the same budget),
// ASHA's decisions and rungs, and parameter importance (a dummy axis below the learning rate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSweepConfig, type SweepAxis } from '../../../main/sweep/sweep-config';
import { axisGrid, gridPoint, gridSize, randomPoint, samplerRng } from '../../../main/sweep/space';
import { tpeSuggest, type Observation } from '../../../main/sweep/tpe';
import { ashaDecision, ashaRungs } from '../../../main/sweep/asha';
import { parameterImportance } from '../../../main/sweep/importance';
import { Rng } from '../../../main/data/generate/rng';
import { EarlyStopping } from '../../../main/sweep/sweep-config';

const base = { data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, epochs: 2, model: { width: 4, depth: 1 } };

test('a sweep file is checked: schema, base config, axis paths and values, each error naming the file and field', () => {
  const ok = parseSweepConfig({ base, axes: [{ path: 'model.width', values: [4, 8] }, { path: 'optimizer.lr', logRange: [1e-4, 1e-2], steps: 3 }] }, 's.json');
  assert.equal(ok.method, 'grid');
  assert.throws(() => parseSweepConfig({ base, axes: [] }, 's.json'), /s\.json: field 'axes'/);
  assert.throws(() => parseSweepConfig({ base: { ...base, epochs: -1 }, axes: [{ path: 'model.width', values: [4] }] }, 's.json'), /s\.json: field 'base': field 'epochs'/);
  assert.throws(() => parseSweepConfig({ base, axes: [{ path: 'model.bogus', values: [1] }] }, 's.json'), /axes\[0\] \('model.bogus'\): expected a field the model kind declares/);
  assert.throws(() => parseSweepConfig({ base, axes: [{ path: 'model.width', values: [-3] }] }, 's.json'), /axes\[0\] \('model.width'\): value -3 gives an invalid run configuration/);
  assert.throws(() => parseSweepConfig({ base, axes: [{ path: 'optimizer.lr', range: [1e-3, 1e-4], steps: 2 }] }, 's.json'), /low < high/);
  assert.throws(() => parseSweepConfig({ base, axes: [{ path: 'optimizer.lr', range: [1e-4, 1e-3] }] }, 's.json'), /a grid needs 'steps'/);
  assert.throws(() => parseSweepConfig({ base, axes: [{ path: 'model.kind', values: ['lino', 'nope'] }] }, 's.json'), /axis 'model.kind': expected one of/);
  assert.throws(() => parseSweepConfig({ base, axes: [{ path: 'seed', values: [1] }, { path: 'seed', values: [2] }] }, 's.json'), /swept twice/);
  // kind and resolution are axes like any other; FNO's modes is declared by its kind
  const k = parseSweepConfig({ base, method: 'random', axes: [{ path: 'model.kind', values: ['lino', 'fno'] }, { path: 'model.modes', range: [2, 4], int: true }, { path: 'model.components', values: [['reflection'], ['reflection', 'scattering']] }] });
  assert.equal(k.axes.length, 3);
});

test('the grid enumerates every combination once, log ranges evenly in log', () => {
  const axes: SweepAxis[] = [{ path: 'a', values: [1, 2] }, { path: 'b', logRange: [1e-4, 1e-2], steps: 3 }];
  assert.deepEqual(axisGrid(axes[1]!), [1e-4, 1e-3, 1e-2]);
  assert.equal(gridSize(axes), 6);
  const pts = Array.from({ length: 6 }, (_, k) => JSON.stringify(gridPoint(axes, k)));
  assert.equal(new Set(pts).size, 6);
  assert.deepEqual(gridPoint(axes, 0), { a: 1, b: 1e-4 });
  assert.deepEqual(gridPoint(axes, 5), { a: 2, b: 1e-2 });
  // the sampler's stream of configuration k is the same on every call (resume draws the same)
  const r = [{ path: 'x', range: [0, 1] }] as SweepAxis[];
  assert.deepEqual(randomPoint(r, samplerRng(3, 7)), randomPoint(r, samplerRng(3, 7)));
});

test('TPE finds lower values than random search on a 1-D quadratic (mean over 20 seeds, 30 trials each)', () => {
  const axes: SweepAxis[] = [{ path: 'x', range: [-10, 10] }];
  const f = (x: number) => (x - 3.3) ** 2;
  const regretTpe: number[] = [], regretRandom: number[] = [];
  let tpeWins = 0;
  for (let seed = 0; seed < 20; seed++) {
    const hist: Observation[] = [];
    for (let k = 0; k < 30; k++) {
      const p = tpeSuggest(axes, hist, samplerRng(seed, k), { startupTrials: 5, candidates: 24 });
      hist.push({ params: p, value: f(p.x as number) });
    }
    const rnd = new Rng(1000 + seed);
    let bestRandom = Infinity;
    for (let k = 0; k < 30; k++) bestRandom = Math.min(bestRandom, f(-10 + 20 * rnd.uniform()));
    const bestTpe = Math.min(...hist.map((h) => h.value));
    regretTpe.push(bestTpe);
    regretRandom.push(bestRandom);
    if (bestTpe < bestRandom) tpeWins++;
  }
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  assert.ok(mean(regretTpe) < mean(regretRandom) / 3, `TPE ${mean(regretTpe)} vs random ${mean(regretRandom)}`);
  assert.ok(tpeWins >= 14, `TPE better in ${tpeWins} of 20 seeds`);
});

test('TPE on a list axis concentrates on the best value', () => {
  const axes: SweepAxis[] = [{ path: 's', values: ['a', 'b', 'c', 'd'] }];
  const cost: Record<string, number> = { a: 3, b: 0, c: 2, d: 5 };
  const hist: Observation[] = [];
  for (let k = 0; k < 30; k++) {
    const p = tpeSuggest(axes, hist, samplerRng(1, k), { startupTrials: 6, candidates: 24 });
    hist.push({ params: p, value: cost[p.s as string]! });
  }
  assert.ok(hist.slice(10).filter((h) => h.params.s === 'b').length >= 12);
});

test('ASHA: rungs minEpochs*eta^k below the epochs; the best 1/eta continue', () => {
  const es = EarlyStopping.parse({ minEpochs: 1, eta: 2 });
  assert.deepEqual(ashaRungs(es, 9), [1, 2, 4, 8]);
  assert.deepEqual(ashaRungs(EarlyStopping.parse({ rungs: [1, 3, 10] }), 5), [1, 3]);
  assert.equal(ashaDecision(0.5, [], es), 'continue'); // first at its rung
  assert.equal(ashaDecision(0.5, [0.1], es), 'prune'); // worse of two, eta 2
  assert.equal(ashaDecision(0.05, [0.1], es), 'continue');
  assert.equal(ashaDecision(0.3, [0.1, 0.2, 0.4], es), 'prune'); // 3rd of 4: only the best 2 continue
  assert.equal(ashaDecision(0.15, [0.1, 0.2, 0.4], es), 'continue');
  assert.equal(ashaDecision(Number.NaN, [], es), 'prune');
});

test('ASHA at odd counts keeps floor(n / eta) values, at least one, as Optuna does (not ceil)', () => {
  const eta2 = EarlyStopping.parse({ eta: 2, minTrialsPerRung: 1 });
  // 5 values at the rung, eta 2: floor(5/2) = 2 continue (ceil would keep 3)
  assert.equal(ashaDecision(0.2, [0.1, 0.3, 0.4, 0.5], eta2), 'continue'); // 2nd of 5
  assert.equal(ashaDecision(0.3, [0.1, 0.2, 0.4, 0.5], eta2), 'prune'); // 3rd of 5: ceil would keep it
  const eta3 = EarlyStopping.parse({ eta: 3, minTrialsPerRung: 1 });
  // 7 values, eta 3: floor(7/3) = 2 continue
  assert.equal(ashaDecision(0.2, [0.1, 0.3, 0.4, 0.5, 0.6, 0.7], eta3), 'continue');
  assert.equal(ashaDecision(0.3, [0.1, 0.2, 0.4, 0.5, 0.6, 0.7], eta3), 'prune');
  // fewer than eta values: floor is 0, the best one still continues
  assert.equal(ashaDecision(0.1, [0.2, 0.3], eta3), 'continue');
  assert.equal(ashaDecision(0.2, [0.1, 0.3], eta3), 'prune');
});

test('parameter importance: a dummy axis ranks below the learning rate (random forest and correlation)', () => {
  const rng = new Rng(7);
  const lr: number[] = [], dummy: number[] = [], metric: number[] = [];
  for (let i = 0; i < 40; i++) {
    const l = -4 + 2 * rng.uniform(); // log10 lr
    const d = rng.uniform();
    lr.push(l);
    dummy.push(d);
    metric.push((l + 3) ** 2 * 0.1 + 0.02 + 0.003 * rng.normal());
  }
  const rows = parameterImportance(['optimizer.lr', 'dummy'], [lr, dummy], metric, [true, true]);
  assert.ok(rows[0]!.importance! > rows[1]!.importance!, JSON.stringify(rows));
  assert.ok(Math.abs(rows[0]!.importance! + rows[1]!.importance! - 1) < 1e-9);
  assert.ok(Math.abs(rows[1]!.correlation!) < 0.4);
  // too few trials: no forest, correlations only
  const few = parameterImportance(['a'], [[1, 2, 3]], [1, 2, 3], [true]);
  assert.equal(few[0]!.importance, null);
  assert.ok(Math.abs(few[0]!.correlation! - 1) < 1e-12);
});

test('a preset\'s groups: grid only, one per configuration, each group once; refusals name the field', () => {
  const axes = [{ path: 'model.components', values: [['reflection', 'refraction'], ['refraction']] }];
  const groups = [{ group: 'k/full', name: 'a/full' }, { group: 'k/no-reflection', name: 'a/no-reflection' }];
  assert.deepEqual(parseSweepConfig({ base, axes, groups }, 's.json').groups, groups);
  assert.throws(() => parseSweepConfig({ base, axes, groups: groups.slice(0, 1) }, 's.json'), /s\.json: field 'groups': expected one per grid configuration \(2\), got 1/);
  assert.throws(() => parseSweepConfig({ base, axes, groups, method: 'random' }, 's.json'), /s\.json: field 'groups': expected method 'grid'/);
  assert.throws(() => parseSweepConfig({ base, axes, groups: [groups[0], groups[0]] }, 's.json'), /s\.json: field 'groups\[1\]\.group': expected each group once/);
});
