// The engine's own WebAssembly kernels are committed as generated modules (main/ops/wasm/*-wasm.ts,
// base64) beside their text sources (*.wat). This fails when a module is stale, i.e. differs from
// what scripts/build-wasm.mjs assembles from the .wat now, and checks that each binary is valid
// WebAssembly of both memory kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spectralMixWasm } from '../../../main/ops/wasm/spectral-mix-wasm';
import { adamwWasm } from '../../../main/ops/wasm/adamw-wasm';
import { sumSquaresWasm } from '../../../main/ops/wasm/sum-squares-wasm';
import { reluGradWasm } from '../../../main/ops/wasm/relu-grad-wasm';
import { geluWasm } from '../../../main/ops/wasm/gelu-wasm';
import { layerNormWasm } from '../../../main/ops/wasm/layer-norm-wasm';
import { householderWasm } from '../../../main/ops/wasm/householder-wasm';
import { scatteringOutputWasm } from '../../../main/ops/wasm/scattering-output-wasm';
import { mixWasm } from '../../../main/ops/wasm/mix-wasm';
import { matmulWasm } from '../../../main/ops/wasm/matmul-wasm';
import { depthwiseFilterGradWasm } from '../../../main/ops/wasm/depthwise-filter-grad-wasm';
import { wasmBytes, webAssembly, type WasmMemory } from '../../../main/util/webassembly';

const root = fileURLToPath(new URL('../../../', import.meta.url));

test('every generated wasm module matches what scripts/build-wasm.mjs assembles from its .wat', async () => {
  const { assembleAll, DIR } = (await import(`${root}scripts/build-wasm.mjs`)) as { assembleAll: () => Promise<Record<string, string>>; DIR: string };
  const modules = await assembleAll();
  assert.deepEqual(Object.keys(modules).sort(), ['adamw-wasm.ts', 'depthwise-filter-grad-wasm.ts', 'gelu-wasm.ts', 'householder-wasm.ts', 'layer-norm-wasm.ts', 'matmul-wasm.ts', 'mix-wasm.ts', 'relu-grad-wasm.ts', 'scattering-output-wasm.ts', 'spectral-mix-wasm.ts', 'sum-squares-wasm.ts']);
  for (const [file, text] of Object.entries(modules)) {
    assert.ok(readFileSync(`${DIR}${file}`, 'utf8') === text, `main/ops/wasm/${file} is stale: run node scripts/build-wasm.mjs`);
  }
});

test('our heap kernels\' binaries instantiate on a plain and on a shared memory, and not the other way round', () => {
  const plain = new webAssembly.Memory({ initial: 1 });
  const shared = new webAssembly.Memory({ initial: 1, maximum: 65536, shared: true });
  const make = (b64: string, memory: WasmMemory) => new webAssembly.Instance(new webAssembly.Module(wasmBytes(b64)), { env: { memory } });
  assert.deepEqual(Object.keys(make(spectralMixWasm.plain, plain).exports).sort(), ['cmix', 'permute']);
  assert.deepEqual(Object.keys(make(spectralMixWasm.shared, shared).exports).sort(), ['cmix', 'permute']);
  assert.throws(() => make(spectralMixWasm.plain, shared), webAssembly.LinkError);
  assert.throws(() => make(spectralMixWasm.shared, plain), webAssembly.LinkError);
  assert.deepEqual(Object.keys(make(geluWasm.plain, plain).exports), ['gelu']);
  assert.deepEqual(Object.keys(make(geluWasm.shared, shared).exports), ['gelu']);
  assert.deepEqual(Object.keys(make(layerNormWasm.plain, plain).exports), ['forward', 'backward']);
  assert.deepEqual(Object.keys(make(layerNormWasm.shared, shared).exports), ['forward', 'backward']);
  assert.deepEqual(Object.keys(make(householderWasm.plain, plain).exports), ['forward', 'backward']);
  assert.deepEqual(Object.keys(make(householderWasm.shared, shared).exports), ['forward', 'backward']);
  assert.deepEqual(Object.keys(make(scatteringOutputWasm.plain, plain).exports), ['forward', 'backward']);
  assert.deepEqual(Object.keys(make(scatteringOutputWasm.shared, shared).exports), ['forward', 'backward']);
  assert.deepEqual(Object.keys(make(mixWasm.plain, plain).exports), ['axpy', 'scaleDot']);
  assert.deepEqual(Object.keys(make(mixWasm.shared, shared).exports), ['axpy', 'scaleDot']);
  assert.deepEqual(Object.keys(make(matmulWasm.plain, plain).exports), ['ab', 'abt', 'atb']);
  assert.deepEqual(Object.keys(make(matmulWasm.shared, shared).exports), ['ab', 'abt', 'atb']);
  assert.deepEqual(Object.keys(make(reluGradWasm.plain, plain).exports), ['relu_grad']);
  assert.deepEqual(Object.keys(make(reluGradWasm.shared, shared).exports), ['relu_grad']);
  assert.deepEqual(Object.keys(make(sumSquaresWasm.plain, plain).exports), ['sumsq']);
  assert.deepEqual(Object.keys(make(sumSquaresWasm.shared, shared).exports), ['sumsq']);
  assert.deepEqual(Object.keys(make(depthwiseFilterGradWasm.plain, plain).exports), ['filterGrad']);
  assert.deepEqual(Object.keys(make(depthwiseFilterGradWasm.shared, shared).exports), ['filterGrad']);
  // AdamW: on the backend's heap, and the host AdamW's plain memory of its own
  assert.deepEqual(Object.keys(make(adamwWasm.plain, plain).exports), ['adamw']);
  assert.deepEqual(Object.keys(make(adamwWasm.shared, shared).exports), ['adamw']);
});
