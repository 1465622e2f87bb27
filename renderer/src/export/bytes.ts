// Byte helpers for exports, free of DOM and Node APIs so they run (and are tested) anywhere.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + '=';
  }
  return out;
}

export function utf8Bytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Decodes a data: URL (base64 or percent-encoded, as Plotly.toImage returns for PNG and SVG). */
export function dataUrlToBytes(url: string): { mime: string; bytes: Uint8Array } {
  const m = /^data:([^;,]+)((?:;[^;,]+)*),(.*)$/s.exec(url);
  if (!m) throw new Error('not a data: URL');
  const mime = m[1]!;
  if (m[2]!.split(';').includes('base64')) {
    const bin = atob(m[3]!);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return { mime, bytes };
  }
  return { mime, bytes: utf8Bytes(decodeURIComponent(m[3]!)) };
}

/** A title as a slug of at most 60 characters ([a-z0-9-]). */
export function exportFileSlug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'export';
}

/** A file name for an export: a slug of the title plus a UTC timestamp, never a path. */
export function exportFileName(title: string, ext: string, now = new Date()): string {
  const slug = exportFileSlug(title);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${slug}-${stamp}.${ext.replace(/^\./, '')}`;
}
