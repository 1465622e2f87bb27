// Electron host: shell.openExternal gets documentation URLs only, not any https URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAllowedExternalUrl, DOC_LINKS } from '../../../electron/external-links';

test('documentation links on the allowlist may open in the system browser', () => {
  for (const url of ['https://arxiv.org/abs/2406.00001', 'https://www.tensorflow.org/js/guide/platform_environment', 'https://doi.org/10.1000/182', 'https://js.tensorflow.org/api/latest/']) {
    assert.equal(isAllowedExternalUrl(url), true, url);
  }
  for (const d of DOC_LINKS) assert.equal(isAllowedExternalUrl(`https://${d.host}${d.pathPrefix}x`), true, d.host);
});

test('everything else is refused: other sites, other schemes, look-alike hosts, credentials, ports, path tricks', () => {
  for (const url of [
    'https://evil.example/',
    'https://example.com/abs/arxiv.org',
    'http://arxiv.org/abs/2406.00001',
    'file:///etc/passwd',
    'smb://host/share',
    'ms-msdt:/id PCWDiagnostic',
    'javascript:alert(1)',
    'https://arxiv.org.evil.example/abs/1',
    'https://evilarxiv.org/abs/1',
    'https://arxiv.org@evil.example/abs/1',
    'https://user:pw@arxiv.org/abs/1',
    'https://arxiv.org:8443/abs/1',
    'https://arxiv.org/login',
    'https://arxiv.org/abs/../login',
    'https://arxiv.org/abs/%2e%2e/login',
    'https://arxiv.org\\@evil.example/abs/',
    'https://www.tensorflow.org/',
    '',
    'not a url',
    `https://arxiv.org/abs/${'a'.repeat(3000)}`,
    42,
    undefined,
  ]) {
    assert.equal(isAllowedExternalUrl(url), false, String(url));
  }
});

test('every shell.openExternal call in the Electron host is guarded by the allowlist', () => {
  const dir = fileURLToPath(new URL('../../../electron/', import.meta.url));
  let calls = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line.includes('openExternal(')) continue;
      calls++;
      assert.match(line, /if \(isAllowedExternalUrl\(url\)\) void shell\.openExternal\(url\)/, `${name}: unguarded openExternal: ${line.trim()}`);
    }
  }
  assert.equal(calls, 1, 'one place opens external links (electron/main.ts, the window-open handler)');
});
