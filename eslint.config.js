import tseslint from 'typescript-eslint';

// ---- layers (docs/CONVENTIONS.md): each folder imports only the folders below it ----------------
// no-restricted-imports is one rule, so each folder's entry carries the whole list for its files
// (the last entry that matches a file wins): electron, tfjs outside main/ops/tf.ts, and the layer's own.
const ELECTRON = { name: 'electron', message: 'main/ and renderer/ must not import electron: only electron/ does' };
const TFJS = { regex: '^@tensorflow/', message: 'tensorflow.js only through main/ops/tf.ts (one tfjs instance, its backends registered once)' };
/** A relative import (at any depth below main/) that reaches one of main/'s `folders`. */
const reaching = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
const layer = (files, patterns, { electron = false } = {}) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths: electron ? [] : [ELECTRON], patterns: [TFJS, ...patterns] }] },
});
const HOST = 'the host process routes calls from main/api/contract and never loads engine code (tfjs, training): the engine process does';
const DOWNWARD = 'layers import downward: engine -> train, data, model, runs -> ops; nothing below the engine imports it, the service or a host';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'tools/**/*.py', 'assets/', 'main/ops/vendor/'] /* generated bundles: scripts/build-tfjs-core-extras.mjs */ },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [ELECTRON] }],
    },
  },
  // The app's code (tests and benches may reach a backend package directly, e.g. to set wasm paths).
  layer(['main/**', 'renderer/**'], []),
  layer(['main/services/**', 'main/hosts/**'], [reaching(['engine', 'train', 'model', 'ops', 'cli'], HOST)]),
  layer(['electron/**/*.ts'], [{ regex: '^\\.\\./main/(engine|train|model|ops|cli)/', message: HOST }], { electron: true }),
  layer(['main/engine/**'], [reaching(['services', 'hosts', 'cli'], DOWNWARD)]),
  layer(['main/train/**', 'main/data/**', 'main/model/**', 'main/runs/**'], [reaching(['engine', 'services', 'hosts', 'cli'], DOWNWARD)]),
  layer(['main/ops/**'], [reaching(['engine', 'services', 'hosts', 'cli', 'train', 'data', 'model', 'runs', 'workspace'], DOWNWARD)]),
  layer(['renderer/**'], [{ regex: '^(\\.\\./)+main/(?!api/)', message: 'the renderer imports only main/api (types and zod schemas); everything else is a WorkbenchApi call' }]),
  { files: ['main/ops/tf.ts'], rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON] }] } },
  // Functions a reader can hold in view: under 150 lines (blank and comment lines not counted).
  { files: ['main/**/*.ts', 'renderer/**/*.{ts,tsx}', 'electron/**/*.ts'], rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] } },
  {
    // GPU backends (webgpu) cannot read tensors synchronously in Node, and a synchronous read stalls
    // the device queue: the engine reads with `await tensor.data()`. An exception needs an
    // eslint-disable comment that names the synchronous backend it relies on.
    files: ['main/train/**/*.ts', 'main/engine/**/*.ts', 'main/model/**/*.ts', 'main/ops/**/*.ts', 'main/runs/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'MemberExpression[property.name=/^(dataSync|arraySync|bufferSync)$/]',
        message: 'synchronous tensor reads throw on webgpu in Node: use `await tensor.data()` (or readValues from main/ops/backend)',
      }],
    },
  },
);
