// A run trained on another machine (scaleout on a cluster, status.json's `host` is that node's
// hostname) keeps its stored state: the trainer's pid names a process there, not here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RunStore } from '../../../main/runs/run-store';
import { tempDir } from '../../helpers/env';

// A pid that is certainly not alive here (above Linux's pid_max).
const GONE = 2 ** 22 + 7;

function runWithStatus(status: Record<string, unknown>) {
  const ws = tempDir('lino-status-host-');
  const run = new RunStore(join(ws.path, 'runs')).create({ name: 'x', data: { kind: 'synthetic', grid: [8, 8] } });
  writeFileSync(run.statusPath, JSON.stringify({ updatedAt: new Date().toISOString(), ...status }));
  return { run, cleanup: ws.cleanup };
}

test('status.json from another host: running and queued stay as stored, whatever the pid does here', () => {
  for (const state of ['running', 'paused', 'queued'] as const) {
    const { run, cleanup } = runWithStatus({ state, pid: GONE, host: `${hostname()}-cluster-node-7` });
    try {
      const s = run.readStatus();
      assert.equal(s.state, state, state);
      assert.equal(s.host, `${hostname()}-cluster-node-7`);
    } finally {
      cleanup();
    }
  }
});

test('status.json from this host (or with no host): a gone trainer pid still reads as interrupted', () => {
  for (const host of [hostname(), undefined]) {
    const { run, cleanup } = runWithStatus({ state: 'running', pid: GONE, ...(host ? { host } : {}) });
    try {
      const s = run.readStatus();
      assert.equal(s.state, 'interrupted', `host ${host}`);
      assert.match(s.reason ?? '', new RegExp(`trainer process ${GONE} is gone`));
    } finally {
      cleanup();
    }
  }
});

test('the workbench writes its own hostname into status.json', () => {
  const { run, cleanup } = runWithStatus({ state: 'queued', pid: null });
  try {
    run.writeStatus({ state: 'stopped', pid: process.pid });
    assert.equal(run.readStatus().host, hostname());
  } finally {
    cleanup();
  }
});
