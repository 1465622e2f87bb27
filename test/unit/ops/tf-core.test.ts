// The engine's TensorFlow.js (main/ops/tf.ts): tfjs-core without the umbrella '@tensorflow/tfjs',
// with every gradient and chained op that tfjs-core defines, from a vendored bundle kept current.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as tf from '../../../main/ops/tf';

const root = new URL('../../../', import.meta.url).pathname;
const coreDist = `${root}node_modules/@tensorflow/tfjs-core/dist`;
const require = createRequire(import.meta.url);

test('every gradient in tfjs-core is registered, and gradients run on the one engine', async () => {
  // the kernel names the gradient configs register, read from tfjs-core's own list of gradient files
  const gradFiles = readdirSync(`${coreDist}/gradients`).filter((f) => f.endsWith('_grad.js'));
  const kernels = gradFiles.map((f) => /kernelName:\s*(\w+)/.exec(readFileSync(`${coreDist}/gradients/${f}`, 'utf8'))?.[1]).filter((k): k is string => !!k);
  assert.ok(kernels.length > 100, `only ${kernels.length} gradient configs found in ${coreDist}/gradients`);
  const names = kernels.map((k) => (tf as unknown as Record<string, unknown>)[k]).filter((n): n is string => typeof n === 'string');
  assert.equal(names.length, kernels.length);
  const missing = names.filter((n) => tf.getGradient(n) === undefined);
  assert.deepEqual(missing, [], `gradients not registered: ${missing.join(', ')}`);

  await tf.setBackend('cpu');
  const x = tf.tensor2d([[1, 2], [3, 4]]);
  const g = tf.grad((a: tf.Tensor) => tf.matMul(a, a).sum())(x);
  // d/dA sum(A·A) = 1·Aᵀ + Aᵀ·1
  assert.deepEqual(await g.array(), [[7, 11], [9, 13]]);
  const v = tf.variable(x);
  const { grads } = tf.variableGrads(() => v.square().sum() as tf.Scalar);
  assert.deepEqual(await grads[v.name]!.array(), [[2, 4], [6, 8]]);
  tf.dispose([x, g, v, grads[v.name]!]);
});

test('the umbrella @tensorflow/tfjs is neither a dependency nor imported by the engine', () => {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(pkg.dependencies['@tensorflow/tfjs'], undefined);
  for (const dep of ['@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-cpu', '@tensorflow/tfjs-backend-wasm']) assert.ok(pkg.dependencies[dep], `package.json dependencies lack ${dep}`);
  assert.equal(require.cache[require.resolve('@tensorflow/tfjs-core')] !== undefined, true, 'tfjs-core is loaded');
  const umbrella = (() => { try { return require.resolve('@tensorflow/tfjs'); } catch { return null; } })();
  if (umbrella) assert.equal(require.cache[umbrella], undefined, '@tensorflow/tfjs was loaded by main/ops/tf.ts');
  // git grep exits 1 when nothing matches
  const grep = spawnSync('git', ['grep', '-l', '--untracked', '-E', "(from |import\\(?)'@tensorflow/tfjs'", '--', 'main', 'bench', 'test', 'scripts', 'electron'], { cwd: root, encoding: 'utf8' });
  assert.equal(grep.status, 1, `files importing @tensorflow/tfjs: ${grep.stdout}${grep.stderr}`);
});

test('the vendored gradient bundle matches what scripts/build-tfjs-core-extras.mjs makes from the installed tfjs-core', async () => {
  const { bundleExtras, OUT } = (await import(`${root}scripts/build-tfjs-core-extras.mjs`)) as { bundleExtras: () => Promise<string>; OUT: string };
  assert.ok(readFileSync(OUT, 'utf8') === (await bundleExtras()), `${OUT} is stale: run node scripts/build-tfjs-core-extras.mjs`);
});
