// Starts browser mode as its own process (`main/hosts/browser/main.ts`, the real entry point with
// a forked engine), so a test can send it hostile input and then check that the process is still
// there: an uncaught exception in the host ends this process, not the test runner.
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT, ensureRendererBuilt } from './host';
import { tempDir } from './env';

export interface HostProcess {
  port: number;
  token: string;
  /** The served origin, for the Origin header a WebSocket upgrade must carry. */
  origin: string;
  child: ChildProcess;
  /** True while the host process has not exited. */
  alive(): boolean;
  /** The last 64 KiB of the host's stdout and stderr. */
  log(): string;
  /** SIGTERM (the host's own clean shutdown), SIGKILL after 10 s; answers the exit code. */
  stop(): Promise<number | null>;
}

const LOG_KEEP = 64 * 1024;

export async function startHostProcess(timeoutMs = 60_000): Promise<HostProcess> {
  ensureRendererBuilt();
  const home = tempDir('lino-home-');
  const config = tempDir('lino-config-');
  const ws = tempDir('lino-ws-');
  const child = spawn(process.execPath, ['--import', 'tsx', `${ROOT}main/hosts/browser/main.ts`, '--no-open', '--workspace', ws.path], {
    cwd: ROOT,
    env: { ...process.env, HOME: home.path, USERPROFILE: home.path, LINO_CONFIG_DIR: config.path },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-LOG_KEEP);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const cleanup = () => {
    for (const d of [home, config, ws]) d.cleanup();
  };

  const started = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`the host did not print its URL within ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const look = () => {
      const m = log.match(/at http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/);
      if (m) done(null, { port: Number(m[1]), token: m[2] });
    };
    const done = (err: Error | null, v?: { port: number; token: string }) => {
      clearTimeout(timer);
      child.stdout!.off('data', look);
      if (err) reject(err);
      else resolve(v!);
    };
    child.stdout!.on('data', look);
    void exit.then((code) => done(new Error(`the host exited (code ${code}) before printing its URL:\n${log}`)));
  }).catch((e) => {
    child.kill('SIGKILL');
    cleanup();
    throw e;
  });

  return {
    ...started,
    origin: `http://127.0.0.1:${started.port}`,
    child,
    alive: () => !exited,
    log: () => log,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      }
      cleanup();
      return exit;
    },
  };
}
