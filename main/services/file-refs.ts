// Opaque references to files the user chose. The renderer only ever holds these tokens;
// the host maps them back to absolute paths, so a renderer cannot name a path it made up.
// Paths are resolved (symlinks included) when a reference is issued and again when it is used:
// a reference from the in-app browser stays inside its root even if a link is retargeted later.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { ApiError } from '../api/contract';

interface Entry { path: string; root: string | null }

/** True when `path` is `root` or lies below it (both already resolved). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export class FileRefs {
  private readonly byRef = new Map<string, Entry>();
  private readonly byKey = new Map<string, string>();

  /**
   * A reference for `absPath` (resolved here). `root`: the resolved folder it must stay inside
   * (the in-app browser's roots); null for a path the user picked in a native dialog.
   */
  issue(absPath: string, root: string | null = null): string {
    const path = realpathSync(absPath);
    if (root !== null && !isInside(root, path)) throw new ApiError(`'${absPath}' resolves outside ${root}`, 'forbidden', { file: absPath });
    const key = `${root ?? ''}\0${path}`;
    const existing = this.byKey.get(key);
    if (existing) return existing;
    const ref = `f_${randomBytes(12).toString('base64url')}`;
    this.byRef.set(ref, { path, root });
    this.byKey.set(key, ref);
    return ref;
  }

  /** The resolved path behind `ref`, checked again against its root; `field` names the parameter in errors. */
  resolve(ref: string, field = 'ref'): string {
    const e = this.byRef.get(ref);
    if (!e) throw new ApiError(`unknown file reference '${ref}' (choose the file again)`, 'not_found', { field });
    let real: string;
    try {
      real = realpathSync(e.path);
    } catch (err) {
      throw new ApiError(`'${e.path}' is gone (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}); choose the file again`, 'not_found', { field, file: e.path });
    }
    if (e.root !== null && !isInside(e.root, real)) {
      throw new ApiError(`'${e.path}' now resolves to '${real}', outside ${e.root}`, 'forbidden', { field, file: e.path });
    }
    return real;
  }

  /**
   * `params` with each file-reference field (dotted paths: the contract's `files`) replaced by the
   * resolved path it names, under the key `path` beside it. A `path` given without its reference is
   * handed to `checkGivenPath`, which throws unless the host chose that path before.
   */
  resolveFields(
    method: string,
    fields: readonly string[],
    params: unknown,
    checkGivenPath: (path: string, field: string, pathField: string) => void,
  ): unknown {
    const resolveAt = (obj: Record<string, unknown>, keys: readonly string[], at: readonly string[]): Record<string, unknown> => {
      const [key, ...rest] = keys;
      if (rest.length > 0) {
        const child = obj[key];
        if (!isRecord(child)) return obj;
        const next = resolveAt(child, rest, [...at, key]);
        return next === child ? obj : { ...obj, [key]: next };
      }
      const field = [...at, key].join('.');
      const pathField = [...at, 'path'].join('.');
      const { [key]: ref, ...others } = obj;
      if (ref === undefined) {
        if (typeof obj.path === 'string') checkGivenPath(obj.path, field, pathField);
        return obj;
      }
      if (obj.path !== undefined) throw new ApiError(`${method}: give ${field} or ${pathField}, not both`, 'invalid_params', { field });
      return { ...others, path: this.resolve(String(ref), field) };
    };
    let out = params;
    for (const f of fields) if (isRecord(out)) out = resolveAt(out, f.split('.'), []);
    return out;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
