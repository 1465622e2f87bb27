// TensorFlow.js as the engine uses it: tfjs-core, its gradients and chained tensor ops, and the
// cpu backend. The umbrella package '@tensorflow/tfjs' would add layers, converter, data and
// webgl, which the engine never uses. The wasm, webgpu and tfjs-node backends are loaded on demand
// by backend.ts and register themselves onto this same core.
// tfjs-core first (module requests run in source order): the engine and Tensor class it puts on
// the global object are the ones the vendored gradients below then use.
export * from '@tensorflow/tfjs-core';
// Refuses a tfjs version the internals below were not tested with, before any of them is installed.
import './tfjs-internals/tfjs-version';
import './tfjs-internals/tfjs-core-extras.mjs';
// Bundlers drop these two side-effect imports (the packages' "sideEffects" lists leave out their
// Node builds): scripts/build-gpu-bench.mjs sets ignoreAnnotations; dist/engine keeps them external.
import '@tensorflow/tfjs-backend-cpu';
import { engine as tfjsEngine } from '@tensorflow/tfjs-core';
import { shareSavedTensors } from './tfjs-internals/saved-tensors';
// tensors saved for backward share their buffer instead of dispatching an Identity kernel each
shareSavedTensors(tfjsEngine());
// The types of the chained ops (x.sum()) that the vendored bundle adds at run time.
import type {} from '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops';
