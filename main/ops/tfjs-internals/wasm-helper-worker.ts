// A helper thread for our own heap kernels on the threaded build's shared memory
// (wasm-helper-threads.ts starts it): it instantiates the kernels' shared-memory binaries on the
// backend's memory and claims chunks of each job the main thread posts (wasm-helper-protocol.ts).
// It never returns to its event loop: between jobs it spins on the control word for spinMs (a job
// posted while it spins is taken up within a microsecond; one posted to a sleeping thread waits
// for the wake-up, ~25 us here), then sleeps in Atomics.wait until the next.
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { webAssembly, type WasmMemory } from '../../util/webassembly';
import { errorMessage } from '../../util/error-message';
import { JOB, READY, SEQ, STOP, claimChunks, type JobDefinition } from './wasm-helper-protocol';

interface Data { memory: WasmMemory; control: SharedArrayBuffer; port: MessagePort; spinMs: number }
const { memory, control, port, spinMs } = workerData as Data;
const ctl = new Int32Array(control);
const jobs: ((...args: number[]) => void)[] = [];
const instances = new Map<object, Record<string, unknown>>();

/** Takes the job definitions posted so far until `id` is known (the main thread posts one before its first job). */
function learn(id: number): void {
  while (jobs.length <= id) {
    const m = receiveMessageOnPort(port);
    if (!m) continue; // posted, not yet queued: it is on its way
    const def = m.message as JobDefinition;
    let exports = instances.get(def.module);
    if (!exports) instances.set(def.module, (exports = new webAssembly.Instance(def.module, { env: { memory } }).exports));
    const fn = exports[def.name];
    if (typeof fn !== 'function') throw new Error(`the kernel module exports no '${def.name}'`);
    jobs.push(fn as (...args: number[]) => void);
  }
}

const run = (job: number, args: number[]): void => {
  learn(job);
  jobs[job]!(...args);
};
const failed = (e: unknown): void => port.postMessage(errorMessage(e));

function serve(): void {
  let seen = Atomics.load(ctl, SEQ);
  Atomics.add(ctl, READY, 1);
  for (;;) {
    let t0 = 0;
    for (let n = 1; Atomics.load(ctl, SEQ) === seen; n++) {
      if ((n & 1023) !== 0) continue;
      const now = performance.now();
      if (t0 === 0) t0 = now;
      else if (now - t0 > spinMs) { Atomics.wait(ctl, SEQ, seen); t0 = 0; }
    }
    seen = Atomics.load(ctl, SEQ);
    if (ctl[JOB] === STOP) return;
    claimChunks(ctl, seen, run, failed, true);
  }
}

serve();
port.close();
