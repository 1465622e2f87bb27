// Hardening II repro 6: `lino info` shows a file's own text (tensor names, __metadata__) with its
// control characters escaped: a value like ESC ] 0;PWNED BEL ESC [2J set the terminal's title and cleared it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSafetensorsFile, serializeSafetensors, toFloat32 } from '../../../main/runs/safetensors';
import { main as lino } from '../../../main/cli/lino';
import { printable, printableJson } from '../../../main/util/printable';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-info-printable-');
after(() => ws.cleanup());
const EVIL = '\x1b]0;PWNED\x07\x1b[2J\x9b31m\u202e';

async function capture(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const [log, write] = [console.log, process.stderr.write];
  console.log = (...a: unknown[]) => { lines.push(a.join(' ')); };
  process.stderr.write = ((chunk: string | Uint8Array) => { lines.push(String(chunk)); return true; }) as typeof process.stderr.write;
  try {
    return { code: await lino(args), out: lines.join('\n') };
  } finally {
    [console.log, process.stderr.write] = [log, write];
  }
}

const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;

test('repro 6: lino info escapes control characters in __metadata__ keys and values, tensor names and errors', async () => {
  const src = readSafetensorsFile(new URL('../../fixtures/parity/1d-all-eff.weights.safetensors', import.meta.url).pathname);
  const tensors = new Map([...src.tensors].map(([k, t]) => [k, { shape: t.shape, data: toFloat32(t) }]));
  const file = join(ws.path, 'evil.safetensors');
  writeFileSync(file, serializeSafetensors(tensors, { ...src.metadata, [`lino.title${EVIL}`]: `v${EVIL}` }));
  for (const json of [false, true]) {
    const r = await capture(['info', '--weights', file, ...(json ? ['--json'] : [])]);
    assert.doesNotMatch(r.out, CONTROLS, `no raw control character reaches the terminal (${json ? '--json' : 'text'})`);
    assert.match(r.out, /\\(x1b|u001b)\]0;PWNED\\(x07|u0007)\\(x1b|u001b)\[2J/);
  }
  // an error quoting the file's own text (a tensor name) is escaped too
  const header = new TextEncoder().encode(JSON.stringify({ [`w${EVIL}`]: { dtype: 'X', shape: [], data_offsets: [0, 0] } }));
  const bad = new Uint8Array(8 + header.length);
  new DataView(bad.buffer).setBigUint64(0, BigInt(header.length), true);
  bad.set(header, 8);
  writeFileSync(join(ws.path, 'bad.safetensors'), bad);
  const r = await capture(['info', '--weights', join(ws.path, 'bad.safetensors')]);
  assert.equal(r.code, 1);
  assert.match(r.out, /tensor 'w\\x1b\]0;PWNED/);
  assert.doesNotMatch(r.out, CONTROLS);
  assert.equal(printable(EVIL), '\\x1b]0;PWNED\\x07\\x1b[2J\\x9b31m\\u202e');
  assert.deepEqual(JSON.parse(printableJson({ v: EVIL })), { v: EVIL }, 'escaped JSON is still the same JSON');
});
