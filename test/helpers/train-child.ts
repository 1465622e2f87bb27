// A trainer process for the crash tests: trains (or resumes) one run of a workspace on the cpu
// backend and says 'training' on stdout once the loop starts. Usage: train-child.ts WORKSPACE RUN_ID
import * as tf from '../../main/ops/tf';
import { join } from 'node:path';
import { RunStore } from '../../main/runs/run-store';
import { trainRun } from '../../main/train/runner';

const [workspace, runId] = process.argv.slice(2);
await tf.setBackend('cpu');
const run = new RunStore(join(workspace!, 'runs')).open(runId!);
const out = await trainRun(run, { onPlan: () => process.stdout.write('training\n') });
process.stdout.write(`${out.state}\n`);
