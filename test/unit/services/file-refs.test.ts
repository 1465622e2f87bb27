// The one resolver for the contract's `files`: each file-reference field reaches the engine and the
// host handlers as the resolved `path` beside it; a bare path is only what the host accepts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, methods } from '../../../main/api/contract';
import { FileRefs } from '../../../main/services/file-refs';
import { tempDir } from '../../helpers/env';

const dir = tempDir('lino-refs-');
after(() => dir.cleanup());
const file = join(dir.path, 'a.npy');
writeFileSync(file, 'x');
const refuseAll = (path: string) => assert.fail(`a bare path reached checkGivenPath: ${path}`);

test('a top-level and a nested reference become `path` beside them; other fields are left as they are', () => {
  const refs = new FileRefs();
  const ref = refs.issue(file);
  assert.deepEqual(refs.resolveFields('datasets.inspect', ['file'], { file: ref, other: 1 }, refuseAll), { other: 1, path: realpathSync(file) });
  const cfg = { config: { epochs: 1, data: { kind: 'file', file: ref, benchmark: 'custom' } }, seeds: 1 };
  const out = refs.resolveFields('train.start', ['config.data.file'], cfg, refuseAll) as typeof cfg & { config: { data: { path?: string } } };
  assert.equal(out.config.data.path, realpathSync(file));
  assert.equal('file' in out.config.data, false);
  assert.equal(cfg.config.data.file, ref, 'the parsed params are not changed in place');
  // Data of another kind has no reference: nothing to resolve.
  const synthetic = { config: { data: { kind: 'synthetic' } } };
  assert.equal(refs.resolveFields('train.start', ['config.data.file'], synthetic, refuseAll), synthetic);
});

test('an unknown reference is refused naming the dotted field; a reference and a path together are refused', () => {
  const refs = new FileRefs();
  assert.throws(() => refs.resolveFields('jobs.start', ['params.file'], { kind: 'import', params: { file: 'f_notissuedbythehost' } }, refuseAll), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.details.field, 'params.file');
    assert.match(e.message, /unknown file reference/);
    return true;
  });
  const ref = refs.issue(file);
  assert.throws(() => refs.resolveFields('train.start', ['config.data.file'], { config: { data: { file: ref, path: '/etc/passwd' } } }, refuseAll), /give config\.data\.file or config\.data\.path, not both/);
});

test('a bare path beside a reference field goes to checkGivenPath with both field names', () => {
  const refs = new FileRefs();
  const seen: string[][] = [];
  refs.resolveFields('train.calibrate', ['config.data.file'], { config: { data: { path: '/data/x.mat' } } }, (path, field, pathField) => seen.push([path, field, pathField]));
  assert.deepEqual(seen, [['/data/x.mat', 'config.data.file', 'config.data.path']]);
});

test('every contract entry says where it runs; the calls with file references name them', () => {
  for (const [name, spec] of Object.entries(methods)) {
    assert.ok(['host', 'engine', 'engine+workspace'].includes(spec.route), `${name}: route ${String(spec.route)}`);
  }
  const withFiles = Object.entries(methods).filter(([, s]) => 'files' in s).map(([n]) => n).sort();
  assert.deepEqual(withFiles, ['datasets.import', 'datasets.inspect', 'jobs.start', 'runs.importCheckpoint', 'train.calibrate', 'train.start', 'workspace.open']);
});
