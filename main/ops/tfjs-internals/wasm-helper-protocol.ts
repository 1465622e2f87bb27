// The control block between the main thread and the helper threads of our heap kernels
// (wasm-helper-threads.ts, wasm-helper-worker.ts): Int32 words in a SharedArrayBuffer.
// A job is one export of a kernel module over `rows` rows, cut in chunks of `chunkRows` rows;
// every thread, the main one too, claims chunks from NEXT until none is left, so a helper that the
// system has descheduled costs at most the chunk it holds (the main thread takes the rest).
// Each argument of the export is affine in the chunk's first and last row: base + r0 c0 + r1 c1.

/** The job's sequence number, written last: helpers start claiming when it changes. */
export const SEQ = 0;
/** Which job (an index into the definitions posted so far), or STOP. */
export const JOB = 1;
/** 1 once a chunk threw (its message follows on the helper's port), else 0. */
export const FAILED = 2;
/** How many helpers serve jobs (each adds 1 when it starts). */
export const READY = 3;
/** The next chunk to claim: (SEQ mod 2^23) << 8 | chunk, so a claim made for an older job fails. */
export const NEXT = 4;
/** Chunks finished (by any thread). */
export const COMPLETED = 5;
export const ROWS = 6;
export const CHUNK_ROWS = 7;
export const CHUNKS = 8;
/** Chunks the helpers have run, all jobs together (what tests and benches read). */
export const HELPED = 9;
export const ARGS = 10;
/** The most arguments an export takes; then the base, c0 and c1 of each. */
export const MAX_ARGS = 11;
export const WORDS = ARGS + 1 + 3 * MAX_ARGS;
/** The most chunks a job is cut into (NEXT's low byte). */
export const MAX_CHUNKS = 255;
/** The job that ends the helpers. */
export const STOP = -1;

/** NEXT's value for chunk 0 of job `seq`. */
export const firstClaim = (seq: number): number => (seq & 0x7fffff) << 8;

/** A job: one export of a kernel module (compiled for a shared memory). */
export interface JobDefinition { module: object; name: string }

/**
 * Writes job `seq` (`chunks` chunks of `chunkRows` of `rows` rows; `form`: each argument's base, c0
 * and c1) and starts it: helpers asleep are woken.
 */
export function postJob(ctl: Int32Array, seq: number, job: number, rows: number, chunkRows: number, chunks: number, form: number[][]): void {
  // First close the last job to claims: a helper that read NEXT before this (the last job's tag,
  // every chunk taken) and reads the new CHUNKS below would otherwise pass the bound and claim a
  // chunk past the last job's end, with the new job's words (a kernel over r1 - r0 < 0 rows).
  // Index 0xff is at least any CHUNKS (MAX_CHUNKS), so nothing is claimed until NEXT is set below.
  Atomics.store(ctl, NEXT, firstClaim(seq - 1) | 0xff);
  ctl[JOB] = job;
  ctl[ROWS] = rows;
  ctl[CHUNK_ROWS] = chunkRows;
  ctl[CHUNKS] = chunks;
  ctl[ARGS] = form[0]!.length;
  form.forEach((f, k) => ctl.set(f, ARGS + 1 + k * MAX_ARGS));
  Atomics.store(ctl, COMPLETED, 0);
  Atomics.store(ctl, NEXT, firstClaim(seq));
  Atomics.store(ctl, SEQ, seq);
  Atomics.notify(ctl, SEQ);
}

/**
 * Claims and runs chunks of job `seq` until none is left; `run(job, args)` runs one, and a chunk
 * that throws sets FAILED and goes to `failed`.
 */
export function claimChunks(ctl: Int32Array, seq: number, run: (job: number, args: number[]) => void, failed: (e: unknown) => void, helper: boolean): void {
  const tag = firstClaim(seq);
  for (;;) {
    const v = Atomics.load(ctl, NEXT);
    if ((v & ~0xff) !== tag || (v & 0xff) >= Atomics.load(ctl, CHUNKS)) return;
    if (Atomics.compareExchange(ctl, NEXT, v, v + 1) !== v) continue;
    // the chunk is ours: the job's words hold still until COMPLETED counts it
    const r0 = (v & 0xff) * ctl[CHUNK_ROWS]!;
    const r1 = Math.min(ctl[ROWS]!, r0 + ctl[CHUNK_ROWS]!);
    const n = ctl[ARGS]!;
    const args = new Array<number>(n);
    for (let i = 0; i < n; i++) args[i] = ctl[ARGS + 1 + i]! + r0 * ctl[ARGS + 1 + MAX_ARGS + i]! + r1 * ctl[ARGS + 1 + 2 * MAX_ARGS + i]!;
    try {
      run(ctl[JOB]!, args);
    } catch (e) {
      Atomics.store(ctl, FAILED, 1);
      failed(e);
    }
    if (helper) Atomics.add(ctl, HELPED, 1);
    Atomics.add(ctl, COMPLETED, 1);
    Atomics.notify(ctl, COMPLETED);
  }
}
