// A run folder trained elsewhere (a cluster's runs/<id>-cluster/, brought back by `lino sweep
// --collect`) is a stranger's file tree: before anything of it is copied into the workspace, every
// entry must be a plain file or folder (a symbolic link could point anywhere: it is refused, never
// copied), config.json and status.json must be JSON objects, and every metrics record must be a JSON
// object whose numbers are finite (JSON's 1e309 parses as Infinity), with epochs counted from 1 and
// relL2 values >= 0. A refusal names the file, the line and the field.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readUserText } from '../util/user-file';
import { errorMessage } from '../util/error-message';

/** Entries a collected run may hold, all levels together (a trained run holds tens). */
const MAX_ENTRIES = 10_000;
const MAX_DEPTH = 8;

export class CollectRefusedError extends Error {
  constructor(readonly path: string, why: string) {
    super(`${path}: ${why}; nothing was collected`);
    this.name = 'CollectRefusedError';
  }
}

/** Throws unless `path` itself is a plain folder (not a link to one). */
export function assertPlainFolder(path: string, what: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    throw new CollectRefusedError(path, `cannot read ${what} (${errorMessage(e)})`);
  }
  if (st.isSymbolicLink()) throw new CollectRefusedError(path, `${what} is a symbolic link; --collect takes only plain files and folders (a link could point outside the workspace)`);
  if (!st.isDirectory()) throw new CollectRefusedError(path, `${what} is not a folder`);
}

/** Every entry under `dir`: plain files and folders only, within the limits. Returns the files' relative paths (and the folders' in `folders`). */
export function plainTree(dir: string, folders: string[] = []): string[] {
  const files: string[] = [];
  let seen = 0;
  const walk = (rel: string, depth: number) => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? join(rel, name) : name;
      const p = join(dir, r);
      const st = lstatSync(p);
      if (++seen > MAX_ENTRIES) throw new CollectRefusedError(dir, `holds more than ${MAX_ENTRIES} entries; expected a run folder`);
      if (st.isSymbolicLink()) throw new CollectRefusedError(p, 'is a symbolic link; --collect takes only plain files and folders (a link could point outside the workspace)');
      if (st.isDirectory()) {
        if (depth >= MAX_DEPTH) throw new CollectRefusedError(p, `lies more than ${MAX_DEPTH} folders deep; expected a run folder`);
        folders.push(r);
        walk(r, depth + 1);
      } else if (st.isFile()) files.push(r);
      else throw new CollectRefusedError(p, 'is not a plain file or folder (a FIFO, socket or device)');
    }
  };
  walk('', 0);
  return files;
}

/** The first number in `v` that is not finite, with its field path, or null. */
function nonFinite(v: unknown, path: string): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : path;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const bad = nonFinite(x, path ? `${path}.${k}` : k);
      if (bad !== null) return bad;
    }
  }
  return null;
}

/** Why one metrics record is refused (naming the field), or null. */
export function metricsRecordProblem(rec: unknown): string | null {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) return 'expected a JSON object';
  const bad = nonFinite(rec, '');
  if (bad !== null) return `field '${bad}': expected a finite number (a float64; 1e309 is not one)`;
  const r = rec as { type?: unknown; epoch?: unknown; step?: unknown; val?: { relL2?: unknown }; train?: { relL2?: unknown } };
  if (r.type === 'epoch') {
    if (!Number.isSafeInteger(r.epoch) || (r.epoch as number) < 1) return `field 'epoch': expected an integer >= 1, got ${JSON.stringify(r.epoch)}`;
    if (typeof r.val?.relL2 !== 'number' || r.val.relL2 < 0) return `field 'val.relL2': expected a number >= 0, got ${JSON.stringify(r.val?.relL2)}`;
  }
  if (r.type === 'step' && (!Number.isSafeInteger(r.step) || (r.step as number) < 0)) return `field 'step': expected an integer >= 0, got ${JSON.stringify(r.step)}`;
  for (const part of ['train', 'val'] as const) {
    const v = (r[part] as { relL2?: unknown } | undefined)?.relL2;
    if (typeof v === 'number' && v < 0) return `field '${part}.relL2': expected a number >= 0, got ${v}`;
  }
  return null;
}

function readJsonObject(path: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(readUserText(path, { what, maxBytes: 16 * 2 ** 20 }));
  } catch (e) {
    throw new CollectRefusedError(path, `cannot read ${what} (${errorMessage(e)})`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new CollectRefusedError(path, `expected ${what} (a JSON object)`);
  const bad = nonFinite(v, '');
  if (bad !== null) throw new CollectRefusedError(path, `field '${bad}': expected a finite number`);
  return v as Record<string, unknown>;
}

/**
 * Checks a run folder trained elsewhere before it is collected (see the top of this file); returns
 * its files' relative paths. A torn last metrics line (a process killed mid-write) is allowed, as
 * the run store reads it; any other line that does not parse is refused.
 */
export function checkCollectedRun(dir: string, into?: string): string[] {
  assertPlainFolder(dir, 'the trained run folder');
  const folders: string[] = [];
  const files = plainTree(dir, folders);
  for (const name of ['config.json', 'status.json', 'metrics.jsonl']) {
    if (folders.includes(name)) throw new CollectRefusedError(join(dir, name), 'is a folder; expected a file');
  }
  if (into) assertMergeable(dir, into, files, folders);
  readJsonObject(join(dir, 'config.json'), 'a run configuration');
  if (files.includes('status.json')) {
    const st = readJsonObject(join(dir, 'status.json'), 'a run status');
    if (typeof st.state !== 'string') throw new CollectRefusedError(join(dir, 'status.json'), `field 'state': expected a run state, got ${JSON.stringify(st.state)}`);
  }
  if (files.includes('metrics.jsonl')) {
    const path = join(dir, 'metrics.jsonl');
    const lines = readUserText(path, { what: 'a metrics log (JSON lines)', maxBytes: 512 * 2 ** 20 }).split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        if (i === lines.length - 1) return; // a last line without its newline, torn by a kill: the run store skips it too
        throw new CollectRefusedError(path, `line ${i + 1}: not JSON`);
      }
      const why = metricsRecordProblem(rec);
      if (why) throw new CollectRefusedError(path, `line ${i + 1}: ${why}`);
    });
  }
  return files;
}

/** Refuses a trained folder whose entry is a file where the local run `into` has a folder, or the reverse: the copy over it would fail halfway. */
function assertMergeable(dir: string, into: string, files: string[], folders: string[]): void {
  const kind = (p: string) => {
    try {
      const st = lstatSync(p);
      return st.isDirectory() ? 'folder' : 'file';
    } catch {
      return null;
    }
  };
  for (const [rel, want] of [...files.map((f) => [f, 'file'] as const), ...folders.map((f) => [f, 'folder'] as const)]) {
    const have = kind(join(into, rel));
    if (have !== null && have !== want) throw new CollectRefusedError(join(dir, rel), `is a ${want} where the local run has a ${have} (${join(into, rel)}); expected the layout of a run folder`);
  }
}
