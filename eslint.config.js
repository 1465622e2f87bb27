import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'tools/**/*.py', 'assets/'] },
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
);
