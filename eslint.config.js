import tseslint from 'typescript-eslint';

// ---- layers (docs/CONVENTIONS.md): one ordered list, top to bottom --------------------------------
// Every folder of main/ has one place here (test/unit/architecture/layers.test.ts checks that none is
// missing and that docs/CONVENTIONS.md draws the same list); a folder imports only the folders AFTER
// it. A new folder is one entry in LAYERS, at the height of what it imports.
export const LAYERS = [
  'cli', // the `lino` command line: drives train, data, runs, reproduce directly (no engine process)
  'hosts', // a host process's entry (browser-mode server); electron/ is the other
  'services', // WorkbenchApi as both hosts serve it: routes each call by its contract entry
  'engine', // the compute process: a handler per engine-routed call, the job queue
  'report', // the offline report (one self-contained HTML file) of a run, a sweep or a reproduction
  'reproduce', // the paper's tables and figures, run as engine jobs or by the CLI
  'workspace', // the open workspace folder and the host's settings
  'api', // the wire: methods, routes, events, and the domain schemas re-exported for the renderer
  'sweep', // sweeps: sweep.json, search methods, ASHA rungs, importance, resumable state
  'train', // losses, optimizer, trainer, evaluation
  'runs', // run store, checkpoints, safetensors
  'data', // arrays, file formats, generators, the data pipeline
  'model', // the model kinds (LiNO, FNO, DeepONet) and their registry
  'ops', // small tfjs functions, one op per file; backends
  'util', // small functions with no domain
];
// Which process a folder runs in adds one more rule: the host process never loads engine code.
const HOST_FOLDERS = ['services', 'hosts'];
const ENGINE_ONLY = ['engine', 'train', 'model', 'ops', 'cli'];

// no-restricted-imports is one rule, so each folder's entry carries the whole list for its files
// (the last entry that matches a file wins): electron, tfjs outside main/ops/tf.ts, and the layer's own.
const ELECTRON = { name: 'electron', message: 'main/ and renderer/ must not import electron: only electron/ does' };
const TFJS = { regex: '^@tensorflow/', message: 'tensorflow.js only through main/ops/tf.ts (one tfjs instance, its backends registered once)' };
/**
 * A relative import that reaches one of main/'s `folders`, from a file `depth` folders below main/'s
 * own (main/api/x.ts: 1; main/api/methods/x.ts: 2, where `../reproduce` is main/api/reproduce.ts).
 */
const reaching = (folders, message, depth = 1) => ({ regex: `^(\\.\\./){${depth},}(main/)?(${folders.join('|')})(/|$)`, message });
const restrict = (files, patterns, { electron = false, tfjs = true } = {}) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths: electron ? [] : [ELECTRON], patterns: [...(tfjs ? [TFJS] : []), ...patterns] }] },
});
const HOST = 'the host process routes calls from main/api/contract and never loads engine code (tfjs, training): the engine process does';
const upward = (i) => `layers import downward (eslint.config.js LAYERS: ${LAYERS.join(' > ')}): main/${LAYERS[i]} may import only ${LAYERS.slice(i + 1).join(', ')}`;
/** The one generic rule: each folder of main/ may not reach a folder above it in LAYERS. */
const layerRules = LAYERS.map((folder, i) => {
  const patterns = i === 0 ? [] : [reaching(LAYERS.slice(0, i), upward(i))];
  if (HOST_FOLDERS.includes(folder)) patterns.push(reaching(ENGINE_ONLY, HOST));
  // A command is one module: what two commands share lives beside the dispatcher (main/cli/*.ts).
  const commands = folder === 'cli' ? [restrict(['main/cli/commands/**'], [{ regex: '^\\./', message: 'a command does not import another command: shared helpers live in main/cli/' }])] : [];
  // The contract's area modules sit one folder deeper: their `../x` is main/api/x, not main/x.
  const methods = folder === 'api' ? [restrict(['main/api/methods/**'], [reaching(LAYERS.slice(0, i), upward(i), 2)])] : [];
  return [restrict([`main/${folder}/**`], patterns), ...commands, ...methods];
}).flat();

// An error's text for the user comes from one helper (main/util/error-message.ts errorMessage, the
// renderer's renderer/src/api/error-text.ts errorText), not a hand-written `e instanceof Error ? …`.
const ERROR_TEXT = {
  selector: "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][consequent.property.name='message']",
  message: 'use errorMessage (main/util/error-message.ts) or, in the renderer, errorText (renderer/src/api/error-text.ts)',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'tools/**/*.py', 'assets/', 'main/ops/tfjs-internals/*.mjs'] /* generated bundles: scripts/build-tfjs-core-extras.mjs */ },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [ELECTRON] }],
    },
  },
  // A worker script Emscripten starts by path (main/ops/tfjs-internals/wasm-thread-worker.cjs): its
  // worker protocol runs tfjs's CommonJS worker source, so the file is CommonJS.
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The app's code (tests and benches may reach a backend package directly, e.g. to set wasm paths).
  restrict(['main/**', 'renderer/**'], []),
  ...layerRules,
  restrict(['electron/**/*.ts'], [{ regex: `^\\.\\./main/(${ENGINE_ONLY.join('|')})/`, message: HOST }], { electron: true }),
  restrict(['renderer/**'], [{ regex: '^(\\.\\./)+main/(?!api/)', message: 'the renderer imports only main/api (types and zod schemas); everything else is a WorkbenchApi call' }]),
  // tf.ts is the one tfjs instance; tfjs-internals/ is the fence around what reaches into tfjs internals.
  restrict(['main/ops/tf.ts', 'main/ops/tfjs-internals/**'], [reaching(LAYERS.slice(0, LAYERS.indexOf('ops')), upward(LAYERS.indexOf('ops')))], { tfjs: false }),
  { files: ['main/**/*.ts', 'renderer/**/*.{ts,tsx}', 'electron/**/*.ts'], ignores: ['main/util/error-message.ts', 'renderer/src/api/error-text.ts'], rules: { 'no-restricted-syntax': ['error', ERROR_TEXT] } },
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
      }, ERROR_TEXT],
    },
  },
);
