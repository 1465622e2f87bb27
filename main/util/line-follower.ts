// Follows a file that another process appends to (a trainer's metrics.jsonl, its log): reads what
// was added since the last poll and hands over each complete line. Polling, not fs.watch: watch
// misses appends on network and some container file systems, and a poll every 100 ms is cheap.
import { closeSync, readSync, statSync } from 'node:fs';
import { openUserFile } from './user-file';

export class LineFollower {
  private offset: number;
  private partial = '';
  private timer: NodeJS.Timeout | null = null;

  /** Starts at byte `from` (default: the file's current end, or 0 when it does not exist yet). */
  constructor(private readonly path: string, private readonly onLine: (line: string) => void, from?: number) {
    this.offset = from ?? sizeOf(path);
  }

  start(intervalMs = 100): this {
    this.timer = setInterval(() => this.poll(), intervalMs);
    return this;
  }

  /** Reads whatever is new now (also the final read after the writer ended). */
  poll(): void {
    const size = sizeOf(this.path);
    if (size < this.offset) {
      // the file was rewritten shorter (a resume dropped records past its checkpoint): read it again
      this.offset = 0;
      this.partial = '';
    }
    if (size === this.offset) return;
    let fd: number;
    try {
      fd = openUserFile(this.path, 'an append-only record file').fd; // never blocks on a FIFO planted in a run folder
    } catch {
      return;
    }
    try {
      const buf = Buffer.alloc(size - this.offset);
      const n = readSync(fd, buf, 0, buf.length, this.offset);
      this.offset += n;
      const text = this.partial + buf.subarray(0, n).toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) this.onLine(l);
    } finally {
      closeSync(fd);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.poll();
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
