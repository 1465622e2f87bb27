import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'tools/**/*.py', 'assets/', 'main/ops/vendor/'] /* generated bundles: scripts/build-tfjs-core-extras.mjs */ },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The engine must never depend on Electron: only electron/ may import it.
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'main/ and renderer/ must not import electron' }] }],
    },
  },
  { files: ['electron/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
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
