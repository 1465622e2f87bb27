// The trust rule for the Python interpreter a client may choose (the Workspace view's setting,
// settings.python). The engine runs that file (the probe, then the trainer), and any client holding
// the session token can set it, so without a rule the API would run any executable a client names,
// including one it wrote itself (an export, a dataset, a temp file). So the setting must name an
// existing, executable regular file, by an absolute path, whose name is a Python interpreter's
// (python, python3, python3.11, python.exe), outside every folder the API writes to (the workspace,
// the settings folder) and outside temp folders, and not writable by every user. LINO_PYTHON, set by
// whoever starts the app, is the operator's choice and is not held to it.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, relative, resolve } from 'node:path';

/** python, python3, python3.11, pythonw, python.exe, python3.12.exe (a Windows launcher 'py' is not an interpreter's path). */
export const PYTHON_NAME = /^python(w)?(\d+(\.\d+)*)?(\.exe)?$/i;

/** Temp folders every process (and an upload) can write to, besides os.tmpdir(). */
const TEMP_ROOTS = ['/tmp', '/var/tmp', '/dev/shm', '/private/tmp', '/private/var/tmp'];

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Why `path` may not be the configured interpreter, or null when it may. `field` names the setting
 * in the message; `writableRoots` are the folders the API writes to (the open workspace, the settings folder).
 */
export function pythonPathProblem(path: string, field: string, writableRoots: string[] = []): string | null {
  const expected = 'the absolute path of an existing, executable Python interpreter (a file named python, python3, python3.11 or python.exe) outside the workspace and temp folders';
  const refuse = (why: string) => `${field}: '${path}' ${why}; expected ${expected}`;
  if (!isAbsolute(path)) return refuse('is not an absolute path');
  if (!PYTHON_NAME.test(basename(path))) return refuse(`is named '${basename(path)}', not like a Python interpreter`);
  let st;
  try {
    st = statSync(path);
  } catch {
    return refuse('does not exist');
  }
  if (!st.isFile()) return refuse('is not a regular file');
  if (process.platform !== 'win32') {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return refuse('is not executable');
    }
    if (st.mode & 0o002) return refuse('is writable by every user (anyone could replace what the engine runs)');
  }
  const roots = [...new Set([...writableRoots, tmpdir(), ...TEMP_ROOTS].flatMap((r) => [resolve(r), real(r)]))];
  const realPath = real(path);
  const under = roots.find((r) => inside(resolve(path), r) || inside(realPath, r));
  if (under) return refuse(`lies in ${under}, a folder the workbench's API or any process can write to`);
  return null;
}
