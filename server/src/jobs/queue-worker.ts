import type { Logger } from 'pino';
import { whileUnavailable } from '../db/while-unavailable.js';
import type { ClaimedJob, JobQueue, QueueName } from './job-queue.js';
import { WorkerStopping } from './job-runner.js';

export interface QueueWorkerOptions<T> {
  queue: JobQueue;
  name: QueueName;
  /** Jobs run at once. */
  concurrency: number;
  /** How often to ask for jobs while the queue seems empty. */
  pollIntervalMs: number;
  /** The queue's heartbeat: running jobs' claims are refreshed at half of it. */
  heartbeatSeconds: number;
  /**
   * Runs one job; resolves when it is done with (`'completed'` when it completed the queue's job itself, in its own
   * transaction), rejects when it must run again. It may call `release()` once its slow part is over (the
   * extraction), so the slot takes the next job while it writes its end.
   */
  handle: (job: ClaimedJob<T>, signal: AbortSignal, release: () => void) => Promise<void | 'completed'>;
  /**
   * Asked now and then (every `watchIntervalMs`) which running jobs to stop, and why (the reason their signal is
   * aborted with): cancelled jobs, jobs whose key was revoked.
   */
  watch?: (running: Array<ClaimedJob<T>>) => Promise<Array<{ id: string; reason: Error }>>;
  watchIntervalMs?: number;
  logger: Logger;
}

interface Running<T> {
  job: ClaimedJob<T>;
  controller: AbortController;
  done: Promise<void>;
  /** Whether it still holds one of the `concurrency` slots (it gives it back with `release`, or when done). */
  holdsSlot: boolean;
}

/**
 * Takes jobs from one pg-boss queue and runs up to `concurrency` of them at once: it asks for as many jobs as it has
 * free slots (one fetch, pg-boss's SKIP LOCKED claim: pgboss.io/api/jobs#fetch), asks again as soon as a slot frees
 * while jobs keep coming, and polls every `pollIntervalMs` when the queue is empty (or at once when `wake()`d by an
 * enqueue in this process). Claims are refreshed by heartbeat (`touch`) while jobs run; a job that resolves is
 * completed, one that rejects is failed (pg-boss runs it again up to the queue's retry limit).
 *
 * pg-boss's own `work()` would poll once per concurrent slot; this asks once per interval for all of them, which
 * matters on the embedded database's single connection.
 */
export class QueueWorker<T extends object> {
  private readonly running = new Map<string, Running<T>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: QueueWorkerOptions<T>) {}

  start(): void {
    if (this.loop) return;
    const { heartbeatSeconds, watch, watchIntervalMs = 500, queue, name, logger } = this.options;
    this.timers.push(setInterval(() => {
      const jobs = [...this.running.values()].map((r) => r.job);
      queue.touch(name, jobs).catch((err) => logger.warn({ err, queue: name }, 'could not refresh running jobs'));
    }, (heartbeatSeconds * 1000) / 2));
    if (watch) {
      let checking = false;
      this.timers.push(setInterval(() => {
        if (checking || this.running.size === 0) return;
        checking = true;
        watch([...this.running.values()].map((r) => r.job))
          .then((stops) => stops.forEach(({ id, reason }) => this.running.get(id)?.controller.abort(reason)))
          .catch(() => {}) // a failed check is not a stop; the next one asks again
          .finally(() => { checking = false; });
      }, watchIntervalMs));
    }
    for (const t of this.timers) t.unref();
    this.loop = this.run();
  }

  /** Jobs were queued: look now instead of at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /** Jobs running now. */
  get busy(): number {
    return this.running.size;
  }

  private slotsHeld(): number {
    let n = 0;
    for (const r of this.running.values()) if (r.holdsSlot) n++;
    return n;
  }

  private async run(): Promise<void> {
    const { queue, name, concurrency, pollIntervalMs, logger } = this.options;
    let failures = 0;
    while (!this.stopping) {
      // Jobs writing their end hold no slot, but no more than `concurrency` of them may be in flight besides the slots.
      const free = Math.max(0, Math.min(concurrency - this.slotsHeld(), 2 * concurrency - this.running.size));
      if (free === 0) {
        await this.nextSlot();
        continue;
      }
      let got: Array<ClaimedJob<T>> = [];
      try {
        got = await queue.fetch<T>(name, free);
        failures = 0;
      } catch (err) {
        // The database is away: back off (up to 5 s) and keep trying.
        if (failures++ === 0) logger.warn({ err, queue: name }, 'could not take jobs from the queue');
      }
      for (const job of got) this.launch(job);
      if (got.length === free && !this.stopping) continue;
      await this.pause(failures ? Math.min(5_000, pollIntervalMs * 2 ** failures) : pollIntervalMs);
    }
  }

  private launch(job: ClaimedJob<T>): void {
    const { queue, name, handle, logger } = this.options;
    const controller = new AbortController();
    const release = () => {
      const entry = this.running.get(job.id);
      if (!entry?.holdsSlot) return;
      entry.holdsSlot = false;
      this.wakeUp?.();
    };
    const done = (async () => {
      try {
        // The database away (refused, "too many clients", no connection in time) is not the job's failure: the job is
        // not failed back to the queue, where it would count as one of its attempts (a job dead-lettered as if its
        // workers had died), but run again here once the database answers, its claim kept alive meanwhile.
        await whileUnavailable(async () => {
          if ((await handle(job, controller.signal, release)) !== 'completed') await queue.complete(name, job);
        }, controller.signal, (err, tries) => {
          if (tries === 0) logger.warn({ err, queue: name, jobId: job.id }, 'the database is away: the job runs again here once it answers');
        });
      } catch (err) {
        if (!(err instanceof WorkerStopping)) logger.warn({ err, queue: name, jobId: job.id }, 'job will run again');
        await queue.fail(name, job, err instanceof Error ? err.message : String(err)).catch(() => {});
      } finally {
        this.running.delete(job.id);
        this.wakeUp?.();
      }
    })();
    this.running.set(job.id, { job, controller, done, holdsSlot: true });
  }

  /** Waits for a slot to free, or for `stop()`. */
  private nextSlot(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeUp = () => { this.wakeUp = undefined; resolve(); };
    });
  }

  /** Waits `ms`, or less when woken (an enqueue here, a slot freed, `stop()`). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.wakeUp = undefined; resolve(); }, ms);
      this.wakeUp = () => { clearTimeout(timer); this.wakeUp = undefined; resolve(); };
    });
  }

  /**
   * Stops taking jobs and waits up to `graceMs` for the running ones; those still running then are stopped
   * (`WorkerStopping`) and failed back to the queue, where another worker takes them. Answers how many ran when it was
   * asked to stop and how many of them were handed back.
   */
  async stop(graceMs: number): Promise<{ running: number; handedBack: number }> {
    this.stopping = true;
    this.wakeUp?.();
    await this.loop;
    const running = this.running.size;
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all(), new Promise((r) => { timer = setTimeout(r, graceMs); })]);
    clearTimeout(timer);
    const handedBack = this.running.size;
    for (const r of this.running.values()) r.controller.abort(new WorkerStopping('the worker is stopping'));
    await all();
    for (const t of this.timers) clearInterval(t);
    return { running, handedBack };
  }
}
