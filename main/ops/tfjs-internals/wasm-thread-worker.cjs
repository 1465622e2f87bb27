// One thread of the wasm backend's thread pool (wasm-threads.ts). tfjs-backend-wasm 4.22 hands its
// Emscripten pthread workers a blob: URL for this script and a Blob for the module's JavaScript, and
// Node's worker_threads takes neither; its own worker source (wasm-out/*.worker.js) runs unchanged
// here, only pointed at the module's JavaScript file instead of the Blob.
'use strict';
const path = require('node:path');
const threads = require('node:worker_threads');

const wasmOut = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'wasm-out');
const moduleScript = path.join(wasmOut, 'tfjs-backend-wasm-threaded-simd.js');

const on = threads.parentPort.on.bind(threads.parentPort);
threads.parentPort.on = (event, listener) =>
  on(event, event !== 'message' ? listener : (data) => {
    if (data && data.cmd === 'load' && typeof data.urlOrBlob !== 'string') data.urlOrBlob = moduleScript;
    listener(data);
  });

const { wasmWorkerContents } = require(path.join(wasmOut, 'tfjs-backend-wasm-threaded-simd.worker.js'));
// tfjs escapes the source's newlines the same way before making its Blob (a "\n" inside a string).
new Function('require', '__filename', wasmWorkerContents.replace(/\n/g, '\\n'))(require, __filename);
