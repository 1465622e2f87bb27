// Which links the app may hand to the system browser (shell.openExternal). Free of runtime
// Electron imports, so it is tested in plain Node. Anything else a page asks to open (a crafted
// link in a dataset name, a compromised dependency) is refused: openExternal runs with the
// user's full rights and can start other protocol handlers.

/** Documentation the app links to: https only, exact host, path under the given prefix. */
export const DOC_LINKS: readonly { host: string; pathPrefix: string }[] = [
  { host: 'arxiv.org', pathPrefix: '/abs/' },
  { host: 'arxiv.org', pathPrefix: '/pdf/' },
  { host: 'doi.org', pathPrefix: '/10.' },
  { host: 'www.tensorflow.org', pathPrefix: '/js/' },
  { host: 'js.tensorflow.org', pathPrefix: '/api/' },
  { host: 'www.electronjs.org', pathPrefix: '/docs/' },
];

/** True only for an https documentation URL on DOC_LINKS (no credentials, no port, no backslashes). */
export function isAllowedExternalUrl(url: unknown): boolean {
  if (typeof url !== 'string' || url.length > 2048 || url.includes('\\')) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) return false;
  // The URL parser has already resolved '..' segments, so the prefix check sees the real path.
  return DOC_LINKS.some((d) => u.hostname === d.host && u.pathname.startsWith(d.pathPrefix));
}
