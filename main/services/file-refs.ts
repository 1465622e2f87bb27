// Opaque references to files the user chose. The renderer only ever holds these tokens;
// the host maps them back to absolute paths, so a renderer cannot name a path it made up.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../api/contract';

export class FileRefs {
  private readonly byRef = new Map<string, string>();
  private readonly byPath = new Map<string, string>();

  issue(absPath: string): string {
    const existing = this.byPath.get(absPath);
    if (existing) return existing;
    const ref = `f_${randomBytes(12).toString('base64url')}`;
    this.byRef.set(ref, absPath);
    this.byPath.set(absPath, ref);
    return ref;
  }

  resolve(ref: string): string {
    const p = this.byRef.get(ref);
    if (!p) throw new ApiError(`unknown file reference '${ref}' (choose the file again)`, 'not_found', { field: 'ref' });
    return p;
  }
}
