import type { Launcher } from './launcher.js';
import { ReaderProcess } from './reader-process.js';

/** Attempts at starting a process for one task before the task fails (a launcher that cannot start anything). */
const START_ATTEMPTS = 3;

/**
 * Reader processes started ahead of time, modules loaded, so a file does not wait for Node and pdf.js to start
 * (about 0.2 s and 0.15 s of CPU each here). Each is used for exactly one task; taking one starts its replacement.
 * Every process this keeps or hands out is tracked until it exits, so `close` leaves none behind.
 */
export class SpareProcesses {
  private readonly spares: ReaderProcess[] = [];
  private readonly live = new Set<ReaderProcess>();
  private closed = false;

  constructor(private readonly launcher: Launcher, private readonly count: number) {}

  /** Starts the spares (also done on first use). */
  warm(): void {
    this.fill();
  }

  /** A started process for one task: a ready spare, else the next to be ready, else a new one. */
  async take(): Promise<ReaderProcess> {
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new Error('the document reader is closed');
      let spare = this.spares.find((p) => p.started) ?? this.spares[0];
      if (spare) this.spares.splice(this.spares.indexOf(spare), 1);
      else spare = this.spawn();
      this.fill();
      try {
        await spare.ready;
        return spare;
      } catch (e) {
        if (attempt >= START_ATTEMPTS) throw e;
      }
    }
  }

  /** The processes alive now (spares and those given a task), by pid. */
  pids(): number[] {
    return [...this.live].map((p) => p.pid).filter((pid): pid is number => pid !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.live];
    for (const p of all) p.kill();
    await Promise.all(all.map((p) => p.exited));
  }

  private fill(): void {
    while (!this.closed && this.spares.length < this.count) this.spares.push(this.spawn());
  }

  private spawn(): ReaderProcess {
    const p = new ReaderProcess(this.launcher);
    this.live.add(p);
    void p.exited.then(() => {
      this.live.delete(p);
      // A spare that died before it was used (killed from outside, start failed): replace it, not in a tight loop.
      const at = this.spares.indexOf(p);
      if (at >= 0) {
        this.spares.splice(at, 1);
        if (p.started) this.fill();
      }
    });
    return p;
  }
}
