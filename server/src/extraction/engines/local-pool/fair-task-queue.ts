import type { EngineCaller } from './engine-turns.js';

/** A task waiting for a thread, as the caller it was submitted as. */
export interface QueuedTask {
  readonly caller: EngineCaller;
}

/** After this many synchronous tasks in a row while a job's waits, a job's goes: jobs are slowed, never starved. */
export const SYNC_BEFORE_JOB = 4;

/** One lane's tasks, by account, served in turns: each account's next task in the order the accounts first waited. */
class Lane<T> {
  private readonly byAccount = new Map<string, T[]>();
  size = 0;

  push(account: string, task: T): void {
    const waiting = this.byAccount.get(account);
    if (waiting) waiting.push(task);
    else this.byAccount.set(account, [task]);
    this.size++;
  }

  /** The next account's oldest task; that account then goes to the back of the turn. */
  shift(): T | null {
    for (const [account, waiting] of this.byAccount) {
      const task = waiting.shift()!;
      this.byAccount.delete(account);
      if (waiting.length) this.byAccount.set(account, waiting);
      this.size--;
      return task;
    }
    return null;
  }

  remove(task: T): boolean {
    for (const [account, waiting] of this.byAccount) {
      const i = waiting.indexOf(task);
      if (i === -1) continue;
      waiting.splice(i, 1);
      if (!waiting.length) this.byAccount.delete(account);
      this.size--;
      return true;
    }
    return false;
  }
}

/**
 * The offline engine's waiting tasks (local-pool.ts hands a task to Piscina only when a thread is free, so this is the
 * queue that orders them; Piscina's own `taskQueue` option is bypassed for tasks with an abort signal, which go to its
 * first-in-first-out `skipQueue`, node_modules/piscina/dist/index.js `_returnUndistributedTask`): a synchronous request's task goes before a job's (its caller waits on the connection; a job waits in the queue
 * anyway), except that after SYNC_BEFORE_JOB of them in a row a waiting job's task goes; within each lane accounts
 * take turns, one task each, so one account's 40 large invoices do not stand before another account's one. Before,
 * one first-in-first-out queue served everyone: a job flood took another tenant's one-line synchronous call from
 * 16-241 ms to 19 s.
 */
export class FairTaskQueue<T extends QueuedTask = QueuedTask> {
  private readonly sync = new Lane<T>();
  private readonly jobs = new Lane<T>();
  private syncInARow = 0;

  get size(): number {
    return this.sync.size + this.jobs.size;
  }

  push(task: T): void {
    const { caller } = task;
    (caller.lane === 'job' ? this.jobs : this.sync).push(caller.accountId, task);
  }

  shift(): T | null {
    if (this.sync.size && (!this.jobs.size || this.syncInARow < SYNC_BEFORE_JOB)) {
      this.syncInARow++;
      return this.sync.shift();
    }
    this.syncInARow = 0;
    return this.jobs.shift();
  }

  remove(task: T): void {
    if (!this.sync.remove(task)) this.jobs.remove(task);
  }
}
