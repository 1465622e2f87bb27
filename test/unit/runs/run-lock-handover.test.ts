// A run lock handed to a child process (the PyTorch trainer): held while the child lives (a second
// writer is refused), stale once the child is gone, and removed by release().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireRunLock, assertRunUnlocked, LOCK_FILE, runLockHolder, RunLockedError } from '../../../main/runs/run-lock';

test('handOver: the child holds the run; gone, the lock is stale; release removes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-lock-'));
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    const lock = acquireRunLock('r1', dir, 'the engine');
    lock.handOver(child.pid!, 'PyTorch (test)');
    const h = runLockHolder(dir)!;
    assert.deepEqual([h.pid, h.owner], [child.pid, 'PyTorch (test)']);
    assert.throws(() => acquireRunLock('r1', dir, 'another'), (e: unknown) => e instanceof RunLockedError && /held by PyTorch \(test\), process/.test(e.message));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    assert.doesNotThrow(() => assertRunUnlocked('r1', dir), 'the child is gone: stale');
    lock.release();
    assert.equal(existsSync(join(dir, LOCK_FILE)), false);
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
