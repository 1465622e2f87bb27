// The host's side of the engine process: starts it, matches replies to calls, restarts it
// after a crash (telling every view), and never lets a crash take the host down.
import { ApiError, type WorkbenchEvent } from '../api/contract';
import { TEXT_PARAM_METHODS, type FromEngine } from '../api/engine-protocol';
import type { EngineHandle, EngineLauncher } from './engine-launcher';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  method: string;
}

export class EngineClient {
  private handle: EngineHandle | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stopping = false;

  constructor(
    private readonly launcher: EngineLauncher,
    private readonly emit: (event: WorkbenchEvent) => void,
  ) {}

  get pid(): number | undefined {
    return this.handle?.pid;
  }

  /** Starts the engine if it is not running; resolves when it has said it is ready. */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    this.emit({ type: 'engine', state: 'starting' });
    const handle = this.launcher();
    this.handle = handle;
    this.ready = new Promise<void>((resolve, reject) => {
      handle.onMessage((msg: FromEngine) => {
        if (msg.type === 'ready') {
          this.emit({ type: 'engine', state: 'ready', pid: msg.pid });
          resolve();
        } else if (msg.type === 'result') {
          const p = this.pending.get(msg.id);
          if (!p) return;
          this.pending.delete(msg.id);
          if (msg.ok) p.resolve(msg.result);
          else p.reject(ApiError.from(msg.error));
        } else if (msg.type === 'result-json') {
          const p = this.pending.get(msg.id);
          if (!p) return;
          this.pending.delete(msg.id);
          p.resolve(JSON.parse(msg.json));
        } else if (msg.type === 'event') {
          this.emit(msg.event);
        } else if (msg.type === 'event-json') {
          this.emit(JSON.parse(msg.json) as WorkbenchEvent);
        }
      });
      handle.onExit((code, signal) => {
        if (this.handle !== handle) return;
        this.handle = null;
        this.ready = null;
        const detail = `engine process ${handle.pid} exited (${signal ? `signal ${signal}` : `code ${code}`})`;
        reject(new ApiError(detail, 'engine_crashed'));
        for (const [id, p] of this.pending) {
          p.reject(new ApiError(`${p.method}: ${detail}`, 'engine_crashed'));
          this.pending.delete(id);
        }
        if (!this.stopping) this.emit({ type: 'engine', state: 'crashed', detail });
      });
    });
    return this.ready;
  }

  async call(method: string, params: unknown): Promise<unknown> {
    await this.start();
    const handle = this.handle;
    if (!handle) throw new ApiError(`${method}: the engine is not running`, 'engine_crashed');
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      handle.send(TEXT_PARAM_METHODS.has(method) ? { type: 'call-json', id, method, json: JSON.stringify(params) } : { type: 'call', id, method, params });
    });
  }

  /** Kills the engine (last resort after a cancel message) and starts a fresh one. */
  async restart(): Promise<number | undefined> {
    this.emit({ type: 'engine', state: 'restarting' });
    await this.stop();
    this.stopping = false;
    await this.start();
    return this.pid;
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    this.stopping = true;
    const gone = new Promise<void>((r) => handle.onExit(() => r()));
    handle.send({ type: 'shutdown' });
    const timer = setTimeout(() => handle.kill(), 2000);
    await gone;
    clearTimeout(timer);
  }
}
