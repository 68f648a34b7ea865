import type { Launcher } from './launcher.js';
import { ReaderProcess } from './reader-process.js';

/** Attempts at starting a process for one task before the task fails (a launcher that cannot start anything). */
const START_ATTEMPTS = 3;

interface Waiter {
  resolve: (p: ReaderProcess) => void;
  reject: (e: unknown) => void;
  attempts: number;
}

/**
 * Reader processes started ahead of time, modules loaded, so a file does not wait for Node and pdf.js to start
 * (about 0.2 s and 0.15 s of CPU each here). Each is used for one file; taking one starts its replacement. Ready
 * processes go to those waiting in the order they asked (a burst of one account's short probes cannot take every
 * process that becomes ready ahead of another's file that asked first). Every process this keeps or hands out is
 * tracked until it exits, so `close` leaves none behind.
 */
export class SpareProcesses {
  private readonly spares: ReaderProcess[] = [];
  private readonly live = new Set<ReaderProcess>();
  private readonly waiters: Waiter[] = [];
  private closed = false;

  constructor(private readonly launcher: Launcher, private readonly count: number) {}

  /** Starts the spares (also done on first use). */
  warm(): void {
    this.fill();
  }

  /** A started process for one file: a ready spare, else the next one ready (in turn), else a new one. */
  take(): Promise<ReaderProcess> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    return new Promise<ReaderProcess>((resolve, reject) => {
      this.waiters.push({ resolve, reject, attempts: 0 });
      // One process on its way per waiter beyond the ready ones, and the spares kept full.
      while (this.spares.length < this.waiters.length) this.spares.push(this.spawn());
      this.fill();
      this.handOut();
    });
  }

  /** The processes alive now (spares and those given a file), by pid. */
  pids(): number[] {
    return [...this.live].map((p) => p.pid).filter((pid): pid is number => pid !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error('the document reader is closed'));
    const all = [...this.live];
    for (const p of all) p.kill();
    await Promise.all(all.map((p) => p.exited));
  }

  /** Gives ready spares to the waiters, first come first served, and starts replacements. */
  private handOut(): void {
    while (this.waiters.length > 0) {
      const ready = this.spares.findIndex((p) => p.started);
      if (ready < 0) return;
      const [spare] = this.spares.splice(ready, 1) as [ReaderProcess];
      this.waiters.shift()!.resolve(spare);
      this.fill();
    }
  }

  private fill(): void {
    while (!this.closed && this.spares.length < this.count + this.waiters.length) this.spares.push(this.spawn());
  }

  private spawn(): ReaderProcess {
    const p = new ReaderProcess(this.launcher);
    this.live.add(p);
    p.ready.then(() => this.handOut(), () => {
      // It could not start: drop it, and fail the first waiter after a few such failures (a launcher that cannot
      // start anything), rather than retrying for ever.
      const at = this.spares.indexOf(p);
      if (at >= 0) this.spares.splice(at, 1);
      const first = this.waiters[0];
      if (first && ++first.attempts >= START_ATTEMPTS) {
        this.waiters.shift();
        first.reject(new Error('reader processes could not be started'));
      }
      if (!this.closed && this.waiters.length > 0) this.fill();
    });
    void p.exited.then(() => {
      this.live.delete(p);
      // A ready spare killed from outside: replace it.
      const at = this.spares.indexOf(p);
      if (at >= 0 && p.started) {
        this.spares.splice(at, 1);
        this.fill();
      }
    });
    return p;
  }
}
