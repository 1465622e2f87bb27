// The trust rule for the interpreter a client may set (settings.python): each refusal names the
// field and what was expected; a real interpreter outside the writable folders is accepted.
// Here, not in test/unit: it names Python interpreters' paths, which the unit-test guard reads as starting Python; it starts none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pythonPathProblem, PYTHON_NAME } from '../../main/util/python-path';
import { tempDir } from '../helpers/env';

const FIELD = "settings.python: field 'python'";
const posix = process.platform !== 'win32';

function refused(path: string, why: RegExp, roots: string[] = []) {
  const p = pythonPathProblem(path, FIELD, roots);
  assert.ok(p, `${path} should be refused`);
  assert.ok(p.startsWith(`${FIELD}: '${path}' `), p);
  assert.match(p, why);
  assert.match(p, /expected the absolute path of an existing, executable Python interpreter/);
}

test('interpreter names: python, python3, python3.11, pythonw, python.exe; nothing else', () => {
  for (const n of ['python', 'python3', 'python3.11', 'python3.12.exe', 'python.exe', 'pythonw', 'PYTHON.EXE']) assert.ok(PYTHON_NAME.test(n), n);
  for (const n of ['sh', 'bash', 'python3-evil', 'python3.sh', 'ipython', 'py', 'python3.11;rm', 'node', '']) assert.ok(!PYTHON_NAME.test(n), n);
});

test('refused: relative, not named like Python, missing, a folder', () => {
  refused('python3', /is not an absolute path/);
  refused('bin/python3', /is not an absolute path/);
  refused('/bin/sh', /is named 'sh', not like a Python interpreter/);
  refused('/nonexistent/python3', /does not exist/);
  const d = tempDir();
  try {
    mkdirSync(join(d.path, 'python3'));
    refused(join(d.path, 'python3'), /is not a regular file/);
  } finally {
    d.cleanup();
  }
});

test('refused: not executable, writable by everyone, inside a temp folder or the workspace', { skip: posix ? false : 'POSIX file modes' }, () => {
  const d = tempDir();
  try {
    const py = join(d.path, 'python3');
    writeFileSync(py, '#!/bin/sh\necho pwned\n');
    chmodSync(py, 0o644);
    refused(py, /is not executable/);
    chmodSync(py, 0o777);
    refused(py, /is writable by every user/);
    chmodSync(py, 0o755);
    refused(py, /lies in .*a folder the workbench's API or any process can write to/);
    // the open workspace (given as a writable root) is named as such
    refused(py, new RegExp(`lies in ${d.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), [d.path]);
    // a link in a temp folder to a real interpreter: the link could be swapped, so it is refused too
    if (existsSync('/usr/bin/python3')) {
      const link = join(d.path, 'python');
      symlinkSync('/usr/bin/python3', link);
      refused(link, /lies in /);
    }
  } finally {
    d.cleanup();
  }
});

test('accepted: a real interpreter outside the writable folders', { skip: existsSync('/usr/bin/python3') ? false : 'no /usr/bin/python3 on this machine' }, () => {
  assert.equal(pythonPathProblem('/usr/bin/python3', FIELD, ['/nonexistent-workspace']), null);
});
