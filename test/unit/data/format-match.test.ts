// Formats as Netron has them: each format module recognises its own files with match(), and
// sniff asks each in turn. Every fixture is claimed by its own module and by no module asked
// before it, so the order in FORMATS only ever settles the one overlap it documents (a v7.3 .mat
// carries HDF5's signature at byte 512).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, readSync } from 'node:fs';
import { FORMATS } from '../../../main/data/formats/sniff';
import type { FormatName } from '../../../main/data/formats/types';
import { fix } from '../../helpers/data-fixtures';

function head(file: string): Uint8Array {
  const fd = openSync(fix(file), 'r');
  try {
    const b = new Uint8Array(4096);
    return b.subarray(0, readSync(fd, b, 0, b.length, 0));
  } finally {
    closeSync(fd);
  }
}

test('each file format module claims its own fixtures through its match(); the others answer null', () => {
  const cases: Array<[string, FormatName]> = [
    ['npy/f8_le_C.npy', 'npy'], ['stored.npz', 'npz'], ['v5_plain.mat', 'mat5'], ['v5_hand_be_raw.mat', 'mat5'], ['v73.mat', 'mat73'], ['pdebench_darcy.h5', 'hdf5'], ['v73_noheader.mat', 'hdf5'],
  ];
  for (const [file, own] of cases) {
    const h = head(file);
    const claims = FORMATS.filter((f) => f.match(h, file) !== null).map((f) => f.name);
    const expected = own === 'mat73' ? ['mat73', 'hdf5'] : [own]; // the documented overlap, settled by order
    assert.deepEqual(claims, expected, file);
    assert.equal(FORMATS.find((f) => f.match(h, file) !== null)!.name, own, file);
  }
  assert.deepEqual(FORMATS.map((f) => f.name).sort(), ['hdf5', 'mat5', 'mat73', 'npy', 'npz'], 'every byte format has one module (the airfoil format is a folder)');
});
